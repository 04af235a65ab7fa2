package io.distlock.zookeeper;

import io.distlock.internal.text.PrintableText;
import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.Watcher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a waiter clears the nodes ahead of it in a key's queue: a first node that nobody claimed, and a holder whose
 * lease ran out. Each delete names the version the waiter read, so a node its owner changed since (a claim, an
 * extension) stays.
 */
final class NodeRemovals {

    private static final Logger log = LoggerFactory.getLogger(ZooKeeperAcquisition.class);

    private final ZooKeeperLeaseStore store;
    private final String key;

    NodeRemovals(ZooKeeperLeaseStore store, String key) {
        this.store = store;
        this.key = key;
    }

    /** Removes a first node that nobody claimed for {@code graceNanos}, unless its owner claimed it since it was read. */
    void removeUnclaimed(String headPath, int version, long graceNanos) {
        if (deleteIfUnchanged(headPath, version, "removing an unclaimed node")) {
            log.warn(
                    "Removed {} for key {}: it stayed first in the queue, unclaimed, for {} ms; the client that created"
                            + " it had left it behind",
                    headPath,
                    PrintableText.of(key),
                    TimeUnit.NANOSECONDS.toMillis(graceNanos));
        }
    }

    /** Removes a holder's node whose lease ran out, unless the holder extended it since it was read. */
    void removeExpired(String holderPath, int version) {
        if (deleteIfUnchanged(holderPath, version, "removing an expired holder")) {
            log.debug(
                    "Removed {} for key {}: its lease ran out on the server's clock",
                    holderPath,
                    PrintableText.of(key));
        }
    }

    /** Drops this client's watch on a node or queue, so that an acquisition that ended leaves none behind. */
    void forgetWatch(String path, Watcher watcher) {
        try {
            store.client()
                    .watchers()
                    .remove(watcher)
                    .ofType(Watcher.WatcherType.Any)
                    .locally()
                    .inBackground()
                    .forPath(path);
        } catch (Exception e) {
            log.debug("Could not drop the watch on {} for key {}", path, PrintableText.of(key), e);
        }
    }

    /**
     * Deletes a node ahead of the waiter at the version it was read at. True if this call deleted it; false if it had
     * changed or was gone already.
     */
    private boolean deleteIfUnchanged(String path, int version, String what) {
        CuratorEvent answer = store.calls()
                .await(
                        key,
                        what,
                        cb -> store.client()
                                .delete()
                                .withVersion(version)
                                .inBackground(cb)
                                .forPath(path));
        return switch (Calls.code(answer)) {
            case OK -> true;
            case NONODE, BADVERSION -> false;
            default -> throw Calls.failure(key, what, answer);
        };
    }
}
