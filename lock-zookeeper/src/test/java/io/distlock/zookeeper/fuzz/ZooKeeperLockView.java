package io.distlock.zookeeper.fuzz;

import io.distlock.tck.fuzz.HolderRead;
import io.distlock.tck.fuzz.ReadBeforeLockView;
import io.distlock.zookeeper.StoredQueues;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.StringJoiner;
import java.util.function.Predicate;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * Reads a key's holder straight from ZooKeeper, on a session of the checker's own, just before each judgement: the
 * first node of the key's queue, if granted, holds the key, its lease running from the node's {@code mtime}. As the
 * store's waiters do, the view compares the lease's end with the server's clock, the {@code mtime} of a write of its
 * own, so that a holder whose lease ran out holds nothing; the end is given on that clock, which is the host's, as the
 * checker's witness's is.
 */
final class ZooKeeperLockView extends ReadBeforeLockView {

    /** Apart from the store's nodes, so that the checker's clock writes touch nothing the store reads. */
    private static final String CLOCK_PATH = "/distlock-fuzz-clock";

    private static final byte[] NOTHING = new byte[0];

    /** Longer than the store's session timeout, within the workers' grace after a run. */
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private final CuratorFramework client;

    ZooKeeperLockView(CuratorFramework client) {
        super(PATIENCE);
        this.client = client;
    }

    /**
     * What {@link ZooKeeperFuzzLocks} puts before a key to name its semaphore's queue: no key of a run starts so, and
     * no key of the store's node names either.
     */
    static final String PERMITS = "permits/";

    /**
     * What {@link ZooKeeperFuzzLocks} puts before a tree's name and a path to name the path's lock; a newline, in no
     * tree's name of a run, ends the tree's name.
     */
    private static final String PATHS = "paths/";

    private static final char TREE_END = '\n';

    /** The lock key under which the view reads who holds a path of a tree. */
    static String pathKey(String tree, String path) {
        return PATHS + tree + TREE_END + path;
    }

    /** The holder of a semaphore key's permits to a section that holds none of them: no owner token is so. */
    private static final String OTHERS = "(permits)";

    /**
     * What {@link ZooKeeperFuzzLocks} puts before a key of a read-write run, whose readers and writers share the key's
     * queue.
     */
    static final String READS = "reads/";

    /** The holder of a key that readers hold to a section that is not among them: no owner token is so. */
    private static final String READERS = "(readers)";

    @Override
    protected HolderRead readHolder(String key, String ownerToken) throws Exception {
        if (key.startsWith(PERMITS)) {
            return readPermit(key.substring(PERMITS.length()), ownerToken);
        }
        if (key.startsWith(READS)) {
            return readReadOrWrite(key.substring(READS.length()), ownerToken);
        }
        if (key.startsWith(PATHS)) {
            int treeEnd = key.indexOf(TREE_END);
            return readPath(key.substring(PATHS.length(), treeEnd), key.substring(treeEnd + 1), ownerToken);
        }
        String queue = StoredQueues.queuePath(key);
        while (true) {
            String head;
            try {
                head = StoredQueues.head(client.getChildren().forPath(queue));
            } catch (KeeperException.NoNodeException e) {
                return HolderRead.none();
            }
            if (head == null) {
                return HolderRead.none();
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
                return HolderRead.none();
            }
            long leaseEnd = stat.getMtime() + holder.leaseMillis();
            return serverMillis() >= leaseEnd ? HolderRead.none() : HolderRead.until(holder.owner(), leaseEnd);
        }
    }

    /**
     * A section's permit of a semaphore key: its own granted node among the key's queue, its lease running from the
     * node's {@code mtime}. While only others hold permits, the key is another owner's, whose lease the witness never
     * judges, as the readers of a Redis read-write lock are.
     */
    private HolderRead readPermit(String key, String ownerToken) throws Exception {
        List<LiveHold> holds = liveHolds(StoredQueues.permitsQueuePath(key), name -> true);
        HolderRead own = own(holds, ownerToken);
        return own != null ? own : holds.isEmpty() ? HolderRead.none() : HolderRead.forGood(OTHERS);
    }

    /**
     * A section of a read-write run: its own granted node among the key's queue, with that node's lease end; else a
     * granted writer; else, while readers hold the key, another owner ({@value #READERS}), whose lease the witness never
     * judges. A writer and a reader granted at once would be a violation, which the section's own read shows.
     */
    private HolderRead readReadOrWrite(String key, String ownerToken) throws Exception {
        List<LiveHold> holds = liveHolds(StoredQueues.queuePath(key), name -> true);
        HolderRead own = own(holds, ownerToken);
        if (own != null) {
            return own;
        }
        HolderRead readers = holds.isEmpty() ? HolderRead.none() : HolderRead.forGood(READERS);
        return holds.stream()
                .filter(hold -> !StoredQueues.isReader(hold.name()))
                .reduce((first, later) -> later)
                .map(writer -> HolderRead.until(writer.owner(), writer.leaseEnd()))
                .orElse(readers);
    }

    /**
     * A path's holder: a granted node of the path among the tree's children, its lease running from the node's {@code
     * mtime}, the section's own if it is there. Two live ones would be a violation, which the section's own read shows.
     */
    private HolderRead readPath(String tree, String path, String ownerToken) throws Exception {
        List<LiveHold> holds = liveHolds(StoredQueues.treePath(tree), name -> StoredQueues.isNodeOfPath(name, path));
        HolderRead own = own(holds, ownerToken);
        if (own != null) {
            return own;
        }
        if (holds.isEmpty()) {
            return HolderRead.none();
        }
        LiveHold other = holds.get(holds.size() - 1);
        return HolderRead.until(other.owner(), other.leaseEnd());
    }

    /** The section's own hold among these, or null if it has none. */
    private static @Nullable HolderRead own(List<LiveHold> holds, String ownerToken) {
        return holds.stream()
                .filter(hold -> hold.owner().equals(ownerToken))
                .findFirst()
                .map(hold -> HolderRead.until(ownerToken, hold.leaseEnd()))
                .orElse(null);
    }

    /**
     * The granted nodes among the children of {@code parent} whose names {@code which} accepts and whose leases run on
     * the server's clock, first come first; none if the parent does not exist.
     */
    private List<LiveHold> liveHolds(String parent, Predicate<String> which) throws Exception {
        List<String> nodes;
        try {
            nodes = StoredQueues.inOrder(client.getChildren().forPath(parent));
        } catch (KeeperException.NoNodeException e) {
            return List.of();
        }
        long now = serverMillis();
        List<LiveHold> holds = new ArrayList<>();
        for (String name : nodes) {
            if (!which.test(name)) {
                continue;
            }
            Stat stat = new Stat();
            byte[] data;
            try {
                data = client.getData().storingStatIn(stat).forPath(ZKPaths.makePath(parent, name));
            } catch (KeeperException.NoNodeException e) {
                continue;
            }
            StoredQueues.Holder holder = StoredQueues.granted(data);
            if (holder != null && now < stat.getMtime() + holder.leaseMillis()) {
                holds.add(new LiveHold(name, holder.owner(), stat.getMtime() + holder.leaseMillis()));
            }
        }
        return holds;
    }

    /**
     * Every node of the key's queue, first come first: its name, the data the store wrote (queued or held, lease,
     * owner), its version, {@code mtime} and the session that owns it, with the server's time of the reading.
     */
    @Override
    public String describe(String lockKey) {
        String queue = lockKey.startsWith(PERMITS)
                ? StoredQueues.permitsQueuePath(lockKey.substring(PERMITS.length()))
                : lockKey.startsWith(READS)
                        ? StoredQueues.queuePath(lockKey.substring(READS.length()))
                        : lockKey.startsWith(PATHS)
                                ? StoredQueues.treePath(lockKey.substring(PATHS.length(), lockKey.indexOf(TREE_END)))
                                : StoredQueues.queuePath(lockKey);
        try {
            List<String> children = new ArrayList<>(client.getChildren().forPath(queue));
            children.sort(Comparator.comparing(name -> name.substring(Math.max(0, name.length() - 10))));
            StringJoiner nodes = new StringJoiner("; ", "server time " + serverMillis() + ", queue [", "]");
            for (String name : children) {
                Stat stat = new Stat();
                try {
                    byte[] data = client.getData().storingStatIn(stat).forPath(ZKPaths.makePath(queue, name));
                    nodes.add(String.format(
                            "%s '%s' version %d mtime %d session %x",
                            name,
                            data == null ? "" : new String(data, StandardCharsets.UTF_8),
                            stat.getVersion(),
                            stat.getMtime(),
                            stat.getEphemeralOwner()));
                } catch (KeeperException.NoNodeException e) {
                    nodes.add(name + " gone while read");
                }
            }
            return nodes.toString();
        } catch (KeeperException.NoNodeException e) {
            return "no queue";
        } catch (Exception e) {
            return "could not read the queue: " + e;
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

    /** A granted node whose lease runs: its name, owner token and lease end on the server's clock. */
    private record LiveHold(String name, String owner, long leaseEnd) {}
}
