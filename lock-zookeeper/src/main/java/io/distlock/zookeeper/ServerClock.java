package io.distlock.zookeeper;

import java.util.concurrent.TimeUnit;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;

/**
 * Reads the ZooKeeper leader's clock, which stamps every node's {@code mtime}, by writing one node of the store: the
 * {@code mtime} of that write is the server's "now". Leases are compared with it, never with a client's clock.
 */
final class ServerClock {

    /**
     * The server's time {@code serverMillis}, stamped after the local {@link System#nanoTime()} {@code sentNanos} at
     * which the request that saw it was sent.
     */
    record Reading(long serverMillis, long sentNanos) {

        /**
         * The earliest local instant at which the server's clock can show {@code serverTime}: the stamp was made no
         * earlier than the request was sent, so the server is at most {@code now - sentNanos} past it.
         */
        long earliestLocalNanos(long serverTime) {
            return sentNanos + TimeUnit.MILLISECONDS.toNanos(serverTime - serverMillis);
        }
    }

    private static final byte[] NOTHING = new byte[0];

    private final CuratorFramework client;
    private final String path;
    private final Calls calls;

    ServerClock(CuratorFramework client, String path, Calls calls) {
        this.client = client;
        this.path = path;
        this.calls = calls;
    }

    Reading read(String key) {
        for (int attempt = 0; ; attempt++) {
            long sent = System.nanoTime();
            CuratorEvent written = calls.await(
                    key,
                    "reading the server clock",
                    cb -> client.setData().inBackground(cb).forPath(path, NOTHING));
            if (Calls.code(written) == Code.OK) {
                return new Reading(written.getStat().getMtime(), sent);
            }
            if (Calls.code(written) != Code.NONODE || attempt > 0) {
                throw Calls.failure(key, "reading the server clock", written);
            }
            CuratorEvent created = calls.await(
                    key,
                    "creating the clock node",
                    cb -> client.create()
                            .creatingParentContainersIfNeeded()
                            .withMode(CreateMode.PERSISTENT)
                            .inBackground(cb)
                            .forPath(path, NOTHING));
            if (Calls.code(created) != Code.OK && Calls.code(created) != Code.NODEEXISTS) {
                throw Calls.failure(key, "creating the clock node", created);
            }
        }
    }
}
