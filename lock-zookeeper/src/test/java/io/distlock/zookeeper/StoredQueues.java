package io.distlock.zookeeper;

import io.distlock.internal.path.PathRules;
import java.util.Comparator;
import java.util.List;
import org.apache.curator.utils.ZKPaths;
import org.jspecify.annotations.Nullable;

/**
 * How {@link ZooKeeperLeaseStore} lays out a key's queue and a tree's held paths under the default base
 * path, for tests outside this package
 * that read the store's state straight from ZooKeeper, as a checker must, rather than through the store.
 */
public final class StoredQueues {

    private static final int SEQUENCE_DIGITS = 10;

    private StoredQueues() {}

    /** The key's node, parent of its queue. */
    public static String queuePath(String key) {
        return ZKPaths.makePath(ZooKeeperLeaseStore.DEFAULT_BASE_PATH, KeyNodes.nodeName(key));
    }

    /** A semaphore key's node, parent of its queue of permits. */
    public static String permitsQueuePath(String key) {
        return ZKPaths.makePath(ZooKeeperLeaseStore.DEFAULT_BASE_PATH, ".permits", KeyNodes.nodeName(key));
    }

    /** A tree's node, parent of the nodes of its held paths. */
    public static String treePath(String tree) {
        return PathNodes.treePath(ZooKeeperLeaseStore.DEFAULT_BASE_PATH, tree);
    }

    /** Whether a child of a tree's node holds this path, given in its canonical spelling. */
    public static boolean isNodeOfPath(String name, String path) {
        return PathRules.parse(path).equals(PathNodes.segments(name));
    }

    /** A queue's children that the store made, by sequence number, as the store orders them. */
    public static List<String> inOrder(List<String> children) {
        return children.stream()
                .filter(name -> sequence(name) >= 0)
                .sorted(Comparator.comparingLong(StoredQueues::sequence))
                .toList();
    }

    /** The first of a queue's children by sequence number, as the store orders them; null if there is none. */
    public static @Nullable String head(List<String> children) {
        return children.stream()
                .filter(name -> sequence(name) >= 0)
                .min(Comparator.comparingLong(StoredQueues::sequence))
                .orElse(null);
    }

    /** Whether a node of a key's queue is a reader's. */
    public static boolean isReader(String name) {
        return Queue.isReader(name);
    }

    /** The holder that a node's data names if it was granted the key; null for a queued node or foreign data. */
    public static @Nullable Holder granted(byte @Nullable [] data) {
        LeaseData lease = LeaseData.parse(data);
        return lease == null || !lease.granted() ? null : new Holder(lease.owner(), lease.leaseMillis());
    }

    /**
     * A granted node's owner token and lease, which runs from the node's {@code mtime} on the leader's clock.
     *
     * @param owner the owner token
     * @param leaseMillis the lease in milliseconds
     */
    public record Holder(String owner, long leaseMillis) {}

    private static long sequence(String name) {
        if (name.length() < SEQUENCE_DIGITS) {
            return -1;
        }
        String digits = name.substring(name.length() - SEQUENCE_DIGITS);
        return digits.chars().allMatch(c -> c >= '0' && c <= '9') ? Long.parseLong(digits) : -1;
    }
}
