package io.distlock.zookeeper;

import io.distlock.store.LeaseReading;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.data.Stat;

/**
 * Reads who holds a key, changing nothing: the first node of its queue, if it is granted, with its lease compared with
 * the server's clock. Reading that clock writes the store's clock node, which no lease depends on.
 */
final class HolderNodes {

    private HolderNodes() {}

    /**
     * The key's first queue node, if it holds a grant whose lease still runs on the server's clock.
     *
     * @param path the node
     * @param data what it holds
     * @param stat its state as read with the data
     * @param leftMillis how long its lease still runs, above 0
     */
    record Granted(String path, LeaseData data, Stat stat, long leftMillis) {}

    /**
     * @param parent the key's node
     * @return the holder's remaining lease on the server's clock, name and time of the grant, or empty when nobody holds
     *     the key
     */
    static Optional<LeaseReading> read(ZooKeeperLeaseStore store, String key, String parent) {
        return first(store, key, parent).map(granted -> {
            Duration remaining = Duration.ofMillis(granted.leftMillis());
            LeaseData holder = granted.data();
            return holder.holder() == null
                    ? new LeaseReading(remaining, null, null)
                    : new LeaseReading(
                            remaining,
                            holder.holder(),
                            Instant.ofEpochMilli(holder.grantedAt(granted.stat().getMtime())));
        });
    }

    /**
     * Reads the key's first queue node.
     *
     * @param parent the key's node
     * @return the node, if it is granted and its lease runs
     */
    static Optional<Granted> first(ZooKeeperLeaseStore store, String key, String parent) {
        List<String> queue = Queue.read(store, key, parent);
        if (queue.isEmpty()) {
            return Optional.empty();
        }
        String path = ZKPaths.makePath(parent, queue.get(0));
        CuratorEvent answer = store.calls()
                .await(
                        key,
                        "reading the holder",
                        cb -> store.client().getData().inBackground(cb).forPath(path));
        switch (Calls.code(answer)) {
            case OK -> {}
            case NONODE -> {
                return Optional.empty();
            }
            default -> throw Calls.failure(key, "reading the holder", answer);
        }
        LeaseData holder = LeaseData.parse(answer.getData());
        if (holder == null || !holder.granted()) {
            return Optional.empty();
        }
        long left = answer.getStat().getMtime()
                + holder.leaseMillis()
                - store.clock().read(key).serverMillis();
        return left > 0 ? Optional.of(new Granted(path, holder, answer.getStat(), left)) : Optional.empty();
    }
}
