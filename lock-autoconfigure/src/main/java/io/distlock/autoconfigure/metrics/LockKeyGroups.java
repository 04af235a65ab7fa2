package io.distlock.autoconfigure.metrics;

import io.distlock.monitor.LockKind;
import java.util.List;

/**
 * Maps lock keys to the few groups that distlock's meters and observations are tagged with. Keys are chosen by the
 * application and can be as many as its orders or products, and a tag per key would give a meter per key; a group
 * such as {@code stock} for every {@code stock:<sku>} keeps the meters few.
 *
 * <p>Define a bean of this type to replace the {@linkplain #byPrefix() default}. It should return few distinct values
 * over the application's life, and must be fast and thread-safe: it runs on every acquisition. Whatever it returns,
 * the auto-configured meters and observations keep at most {@code distlock.metrics.max-groups} distinct groups (100
 * by default) and count every further group as {@value #OTHER}, since keys are often built from request data.
 */
@FunctionalInterface
public interface LockKeyGroups {

    /** The group of keys that have no {@code ':'}, or nothing before it. */
    String UNGROUPED = "ungrouped";

    /** The group of every key whose own group came after {@code distlock.metrics.max-groups} others. */
    String OTHER = "other";

    /**
     * The group of a key.
     *
     * @param key the key the application asked for; for a {@linkplain LockKind#PATH path lock}, the tree's name
     * @param kind the kind of lock
     * @return the group, never null
     */
    String groupOf(String key, LockKind kind);

    /**
     * The default groups: the text before a key's first {@code ':'} ({@code stock} for {@code stock:42}), and {@value
     * #UNGROUPED} for a key without one. A path lock is grouped the same way by its tree's name ({@code project} for
     * the tree {@code project:42}), never by the whole name, which is as often built from request data as a key.
     *
     * @return the default groups
     */
    static LockKeyGroups byPrefix() {
        return (key, kind) -> {
            int colon = key.indexOf(':');
            return colon > 0 ? key.substring(0, colon) : UNGROUPED;
        };
    }

    /**
     * The default groups, except that a key starting with one of {@code wholeKeyPrefixes} is a group of its own: with
     * {@code jobs:}, every scheduled job keyed {@code jobs:<name>} has its own meters ({@code
     * distlock.metrics.key-group-prefixes}). A path lock is grouped by its tree's name as {@link #byPrefix()} groups
     * it.
     *
     * @param wholeKeyPrefixes the prefixes of keys that are their own group
     * @return the groups
     */
    static LockKeyGroups byPrefix(List<String> wholeKeyPrefixes) {
        LockKeyGroups byPrefix = byPrefix();
        if (wholeKeyPrefixes.isEmpty()) {
            return byPrefix;
        }
        List<String> prefixes = List.copyOf(wholeKeyPrefixes);
        return (key, kind) -> kind != LockKind.PATH && prefixes.stream().anyMatch(key::startsWith)
                ? key
                : byPrefix.groupOf(key, kind);
    }
}
