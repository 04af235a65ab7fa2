package io.distlock.zookeeper.fuzz;

import static org.awaitility.Awaitility.await;

import io.distlock.test.fuzz.LockView;
import io.distlock.zookeeper.StoredQueues;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.awaitility.core.ConditionTimeoutException;

/**
 * Reads a key's holder straight from ZooKeeper, on a session of the checker's own, just before each judgement ({@link
 * LockView#READ_BEFORE_PRELUDE}): the first node of the key's queue, if granted, holds the key, its lease running from
 * the node's {@code mtime}. As the store's waiters do, the view compares the lease's end with the server's clock, the
 * {@code mtime} of a write of its own, so that a holder whose lease ran out holds nothing; the end is sent on that
 * clock, which is the host's, as the checker's Redis's is.
 */
final class ZooKeeperLockView implements LockView {

    /** Apart from the store's nodes, so that the checker's clock writes touch nothing the store reads. */
    private static final String CLOCK_PATH = "/distlock-fuzz-clock";

    private static final byte[] NOTHING = new byte[0];
    private static final List<String> NO_HOLDER = List.of("", "-1");

    /** Longer than the store's session timeout, within the workers' grace after a run. */
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private static final Duration RETRY_INTERVAL = Duration.ofMillis(50);

    private final CuratorFramework client;

    ZooKeeperLockView(CuratorFramework client) {
        this.client = client;
    }

    @Override
    public String prelude() {
        return LockView.READ_BEFORE_PRELUDE;
    }

    @Override
    public List<String> keys(String lockKey) {
        return List.of();
    }

    @Override
    public List<String> args(String lockKey) {
        try {
            return read(lockKey);
        } catch (Exception first) {
            try {
                return await().atMost(PATIENCE)
                        .pollInterval(RETRY_INTERVAL)
                        .pollInSameThread()
                        .ignoreExceptions()
                        .until(() -> read(lockKey), Objects::nonNull);
            } catch (ConditionTimeoutException e) {
                throw new Unreadable(lockKey, first);
            }
        }
    }

    private List<String> read(String key) throws Exception {
        String queue = StoredQueues.queuePath(key);
        while (true) {
            String head;
            try {
                head = StoredQueues.head(client.getChildren().forPath(queue));
            } catch (KeeperException.NoNodeException e) {
                return NO_HOLDER;
            }
            if (head == null) {
                return NO_HOLDER;
            }
            Stat stat = new Stat();
            byte[] data;
            try {
                data = client.getData().storingStatIn(stat).forPath(ZKPaths.makePath(queue, head));
            } catch (KeeperException.NoNodeException e) {
                // The head left between the two reads: read the queue again.
                continue;
            }
            StoredQueues.Holder holder = StoredQueues.granted(data);
            if (holder == null) {
                return NO_HOLDER;
            }
            long leaseEnd = stat.getMtime() + holder.leaseMillis();
            return serverMillis() >= leaseEnd ? NO_HOLDER : List.of(holder.owner(), Long.toString(leaseEnd));
        }
    }

    private long serverMillis() throws Exception {
        try {
            return client.setData().forPath(CLOCK_PATH, NOTHING).getMtime();
        } catch (KeeperException.NoNodeException e) {
            try {
                client.create().withMode(CreateMode.PERSISTENT).forPath(CLOCK_PATH, NOTHING);
            } catch (KeeperException.NodeExistsException another) {
                // Another worker's checker created it first.
            }
            return client.setData().forPath(CLOCK_PATH, NOTHING).getMtime();
        }
    }
}
