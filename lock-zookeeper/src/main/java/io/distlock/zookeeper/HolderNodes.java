package io.distlock.zookeeper;

import io.distlock.store.LeaseReading;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;

/**
 * Reads who holds a key, changing nothing: the first node of its queue, if it is granted, with its lease compared with
 * the server's clock. Reading that clock writes the store's clock node, which no lease depends on.
 */
final class HolderNodes {

    private HolderNodes() {}

    /**
     * @param parent the key's node
     * @return the holder's remaining lease on the server's clock, name and time of the grant, or empty when nobody holds
     *     the key
     */
    static Optional<LeaseReading> read(ZooKeeperLeaseStore store, String key, String parent) {
        List<String> queue = Queue.read(store, key, parent);
        if (queue.isEmpty()) {
            return Optional.empty();
        }
        CuratorEvent answer = store.calls()
                .await(
                        key,
                        "reading the holder",
                        cb -> store.client()
                                .getData()
                                .inBackground(cb)
                                .forPath(ZKPaths.makePath(parent, queue.get(0))));
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
        long mtime = answer.getStat().getMtime();
        long left = mtime + holder.leaseMillis() - store.clock().read(key).serverMillis();
        if (left <= 0) {
            return Optional.empty();
        }
        Duration remaining = Duration.ofMillis(left);
        return Optional.of(
                holder.holder() == null
                        ? new LeaseReading(remaining, null, null)
                        : new LeaseReading(remaining, holder.holder(), Instant.ofEpochMilli(holder.grantedAt(mtime))));
    }
}
