package io.distlock.autoconfigure.metrics;

import io.distlock.monitor.LockKind;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The groups that distlock's meters and observations are tagged with, at most a fixed number of them: the first groups
 * that the application's {@link LockKeyGroups} returns keep their names, and every later one is {@value
 * LockKeyGroups#OTHER}. A key that starts with request data ({@code #email + ':cart'}) makes a group per value, and
 * each group new meters that are never removed; with this bound, no request can add meters or span tags without end.
 * One instance serves the meters and the observations, so that both name the same groups.
 */
final class LimitedKeyGroups {

    private static final Logger log = LoggerFactory.getLogger(LimitedKeyGroups.class);

    private final LockKeyGroups groups;
    private final int maxGroups;
    private final Set<String> kept = ConcurrentHashMap.newKeySet();
    private final AtomicBoolean reachedMaximum = new AtomicBoolean();

    LimitedKeyGroups(LockKeyGroups groups, int maxGroups) {
        this.groups = groups;
        this.maxGroups = maxGroups;
    }

    /** The key's group, or {@value LockKeyGroups#OTHER} if it would be one more than the maximum. */
    String groupOf(String key, LockKind kind) {
        String group = groups.groupOf(key, kind);
        if (kept.contains(group)) {
            return group;
        }
        // Exact, so that the number of groups is a bound operators can size their metrics backend by.
        synchronized (kept) {
            if (kept.contains(group) || kept.size() < maxGroups && kept.add(group)) {
                return group;
            }
        }
        if (reachedMaximum.compareAndSet(false, true)) {
            log.warn(
                    "distlock's meters and observations have {} key groups, the most distlock.metrics.max-groups"
                            + " allows; the keys of every further group are counted under the group '{}'. Keys that"
                            + " start with request data make a group per value: start them with a constant prefix"
                            + " ('order:' + #id), or define a LockKeyGroups bean",
                    maxGroups,
                    LockKeyGroups.OTHER);
        }
        return LockKeyGroups.OTHER;
    }
}
