package io.distlock.zookeeper;

import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLease;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * One place in a key's queue: an ephemeral sequential node under the key's node. The lowest node holds the key; each
 * waiter watches only the node just ahead of it, and only the waiter right behind the holder checks whether the
 * holder's lease ran out on the server's clock and then removes the holder's node.
 *
 * <p>In a semaphore key's queue the first {@code permits} nodes hold permits, and a waiter takes one once fewer than
 * its count of nodes are ahead of it. Since any node ahead leaving moves it up, each such waiter watches the queue
 * itself; the first waiter behind the holders checks their leases, as the waiter behind a lock's holder does.
 *
 * <p>Readers queue in the key's own queue, as nodes named apart ({@link Queue#isReader}). A reader holds the key
 * together with the readers ahead of it once no writer's node is ahead, and waits behind the last writer ahead
 * otherwise; a writer holds it once it is first. So a reader that comes after a waiting writer waits for it, and
 * writers never starve. A writer behind readers watches the reader just ahead and checks its lease.
 *
 * <p>A queued node has no lease, and its owner claims it as soon as it comes first. A node that its client forgot while
 * the session lives on (a create whose answer was lost, say) is never claimed, and would keep every waiter behind it
 * waiting for as long as that session lives. So each waiter reads the queue again at least every {@linkplain
 * AheadChecks#unclaimedGraceNanos() grace}, even without a change, and the waiter right behind an unclaimed first node
 * removes it once it stayed unclaimed for that long. The removal is made with the node's first version, so a node that
 * was claimed meanwhile stays; an owner that was merely slow finds its node gone when it claims it, and queues again.
 */
final class ZooKeeperAcquisition implements LeaseStore.Acquisition {

    /** Each round follows a change in the queue; this many in one call means heavy churn, so the caller waits. */
    private static final int ROUNDS = 20;

    private static final int CREATE_ATTEMPTS = 3;

    private final ZooKeeperLeaseStore store;
    private final String key;
    private final String parent;
    private final String owner;
    private final String holder;
    private final long leaseMillis;
    /** How many nodes at the head of the queue hold it: 1 for a lock, the count for a semaphore. */
    private final int permits;
    /** Whether this is a reader, who holds beside the readers ahead of it. */
    private final boolean reader;

    private final AheadChecks checks;
    private final WaiterSignals signals;
    private @Nullable String ownPath;
    private @Nullable String watchedPath;
    private boolean createUnsure;
    /** A create whose answer did not come in time: Curator may still make the node, and reports when it knows. */
    private @Nullable CompletableFuture<CuratorEvent> pendingCreate;

    private boolean granted;

    ZooKeeperAcquisition(
            ZooKeeperLeaseStore store,
            String key,
            String parent,
            String owner,
            String holder,
            long leaseMillis,
            int permits,
            boolean reader) {
        this.store = store;
        this.key = key;
        this.parent = parent;
        this.owner = owner;
        this.holder = holder;
        this.leaseMillis = leaseMillis;
        this.permits = permits;
        this.reader = reader;
        this.checks = new AheadChecks(store, key);
        this.signals = new WaiterSignals(store.connection());
    }

    @Override
    public @Nullable StoreLease tryTake() {
        signals.startTry();
        for (int round = 0; round < ROUNDS; round++) {
            signals.startRound();
            if (ownPath == null) {
                join();
            }
            String own = ZKPaths.getNodeFromPath(ownPath);
            List<String> queue = Queue.read(store, key, parent, permits == 1 ? null : signals.watcher());
            int place = queue.indexOf(own);
            if (place < 0) {
                // The node went with an expired session; queue again at the back.
                ownPath = null;
                continue;
            }
            if (mayHold(queue, place)) {
                StoreLease lease = grant();
                if (lease != null) {
                    return lease;
                }
                continue;
            }
            int ahead = reader ? lastWriterAhead(queue, place) : place - 1;
            boolean waits = permits == 1
                    ? waitBehind(queue.get(ahead), mayHold(queue, ahead))
                    : waitForPermit(queue.subList(0, permits), place == permits);
            if (waits) {
                return null;
            }
        }
        signals.checkAgainAt(System.nanoTime());
        return null;
    }

    @Override
    public void awaitChance(long deadlineNanos) throws InterruptedException {
        signals.await(deadlineNanos);
    }

    @Override
    public void close() {
        signals.close();
        String watched = watchedPath;
        if (watched != null) {
            checks.forgetWatch(watched, signals.watcher());
        }
        if (granted) {
            return;
        }
        String own = ownPath;
        CompletableFuture<CuratorEvent> create = pendingCreate;
        if (own != null) {
            Queue.remove(store, key, own);
        } else if (create != null) {
            // Looking now could miss a node that Curator's retries create later, and that node would then block the
            // queue for as long as the session lives: remove it once Curator reports how the create ended.
            create.whenCompleteAsync(
                    (answer, failure) -> removeCreated(answer), store.threads().cleanup());
        } else if (createUnsure) {
            Queue.removeOwnerNodes(store, key, parent, owner);
        }
    }

    /** Removes the node of a create given up on, or every node of this owner's when the create's outcome is unknown. */
    private void removeCreated(@Nullable CuratorEvent answer) {
        if (answer != null && Calls.code(answer) == Code.OK) {
            Queue.remove(store, key, answer.getName());
        } else if (answer == null || Calls.code(answer) != Code.NONODE) {
            Queue.removeOwnerNodes(store, key, parent, owner);
        }
    }

    /** Creates this acquisition's queue node; a protected create finds its node again if the answer was lost. */
    private void join() {
        byte[] data = LeaseData.queued(leaseMillis, owner, holder).bytes();
        String prefix = ZKPaths.makePath(parent, reader ? Queue.READER_PREFIX : Queue.WRITER_PREFIX);
        createUnsure = true;
        for (int attempt = 1; ; attempt++) {
            long sent = System.nanoTime();
            Stat stat = new Stat();
            CompletableFuture<CuratorEvent> started = store.calls()
                    .start(
                            key,
                            "joining the queue",
                            cb -> client().create()
                                    .storingStatIn(stat)
                                    .creatingParentContainersIfNeeded()
                                    .withProtection()
                                    .withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                                    .inBackground(cb)
                                    .forPath(prefix, data));
            CuratorEvent answer;
            try {
                answer = store.calls().await(key, "joining the queue", started);
            } catch (RuntimeException e) {
                if (!started.isDone()) {
                    pendingCreate = started;
                }
                throw e;
            }
            Code code = Calls.code(answer);
            if (code == Code.OK) {
                ownPath = answer.getName();
                createUnsure = false;
                Stat created = answer.getStat() != null ? answer.getStat() : stat;
                if (created.getCtime() > 0) {
                    checks.clockRead(created.getCtime(), sent);
                }
                return;
            }
            // A container parent is removed by the server once empty, possibly between its creation and ours.
            if (code != Code.NONODE || attempt == CREATE_ATTEMPTS) {
                throw Calls.failure(key, "joining the queue", answer);
            }
        }
    }

    /**
     * Whether the node at {@code place} may hold: one of the first {@code permits} of a semaphore key's queue, the first
     * node of a key's queue, or a reader with no writer ahead of it.
     */
    private boolean mayHold(List<String> queue, int place) {
        if (permits > 1 || place == 0) {
            return place < permits;
        }
        return Queue.isReader(queue.get(place)) && lastWriterAhead(queue, place) < 0;
    }

    /** Where the last writer ahead of {@code place} stands in the queue, or -1 if there is none. */
    private static int lastWriterAhead(List<String> queue, int place) {
        for (int ahead = place - 1; ahead >= 0; ahead--) {
            if (!Queue.isReader(queue.get(ahead))) {
                return ahead;
            }
        }
        return -1;
    }

    /**
     * Marks the own node, which may hold, as holding the key; its {@code mtime} becomes the lease's start on the
     * server's clock. Null if the node is gone, so the caller queues again.
     */
    private @Nullable StoreLease grant() {
        String own = ownPath;
        byte[] data = LeaseData.held(leaseMillis, owner, 0, holder).bytes();
        long troubles = store.connection().troubles();
        long sent = System.nanoTime();
        CuratorEvent answer = store.calls()
                .await(
                        key,
                        "taking the key",
                        cb -> client().setData().withVersion(0).inBackground(cb).forPath(own, data));
        switch (Calls.code(answer)) {
            case OK -> {}
            case NONODE -> {
                ownPath = null;
                return null;
            }
            default -> throw Calls.failure(key, "taking the key", answer);
        }
        ZooKeeperLease lease = new ZooKeeperLease(store, key, own, owner, holder, answer.getStat(), sent);
        if (!lease.watch()) {
            ownPath = null;
            return null;
        }
        granted = true;
        store.connection().hold(lease, troubles);
        return lease;
    }

    /**
     * Watches the node ahead: the one just ahead, or for a reader the last writer ahead. When that node may hold, also
     * checks its lease against the server's clock and removes its node if the lease ran out, or if it stayed unclaimed
     * too long. False if the queue changed and should be read again.
     */
    private boolean waitBehind(String ahead, boolean aheadHolds) {
        String aheadPath = ZKPaths.makePath(parent, ahead);
        watchedPath = aheadPath;
        if (!aheadHolds) {
            CuratorEvent answer = store.calls()
                    .await(
                            key,
                            "watching the queue",
                            cb -> client().checkExists()
                                    .usingWatcher(signals.watcher())
                                    .inBackground(cb)
                                    .forPath(aheadPath));
            return switch (Calls.code(answer)) {
                case OK -> {
                    if (answer.getStat() == null) {
                        yield false;
                    }
                    signals.checkAgainAt(System.nanoTime() + checks.unclaimedGraceNanos());
                    yield true;
                }
                case NONODE -> false;
                default -> throw Calls.failure(key, "watching the queue", answer);
            };
        }
        CuratorEvent answer = store.calls()
                .await(
                        key,
                        "watching the holder",
                        cb -> client().getData()
                                .usingWatcher(signals.watcher())
                                .inBackground(cb)
                                .forPath(aheadPath));
        switch (Calls.code(answer)) {
            case OK -> {}
            case NONODE -> {
                return false;
            }
            default -> throw Calls.failure(key, "watching the holder", answer);
        }
        LeaseData holder = LeaseData.parse(answer.getData());
        long ends = holder == null || !holder.granted()
                // Not granted yet: its owner is about to take the key, and that change wakes us.
                ? checks.awaitClaim(aheadPath, answer.getStat())
                : checks.leaseEnd(aheadPath, answer.getStat(), holder);
        if (ends == AheadChecks.EXPIRED) {
            return false;
        }
        signals.checkAgainAt(ends);
        return true;
    }

    /**
     * Waits behind a semaphore key's holders, watched through the queue ({@link Queue#read}); the first waiter checks
     * their leases as {@link #waitBehind} does. False if the queue changed and should be read again.
     */
    private boolean waitForPermit(List<String> holders, boolean firstWaiter) {
        watchedPath = parent;
        long checkAgain = System.nanoTime() + checks.unclaimedGraceNanos();
        if (!firstWaiter) {
            signals.checkAgainAt(checkAgain);
            return true;
        }
        for (String name : holders) {
            String path = ZKPaths.makePath(parent, name);
            CuratorEvent answer = store.calls()
                    .await(
                            key,
                            "reading a holder",
                            cb -> client().getData().inBackground(cb).forPath(path));
            if (Calls.code(answer) != Code.OK) {
                if (Calls.code(answer) == Code.NONODE) {
                    return false;
                }
                throw Calls.failure(key, "reading a holder", answer);
            }
            LeaseData data = LeaseData.parse(answer.getData());
            if (data == null || !data.granted()) {
                long claimBy = checks.awaitClaim(path, answer.getStat());
                if (claimBy != AheadChecks.EXPIRED) {
                    signals.checkAgainAt(claimBy);
                }
                return claimBy != AheadChecks.EXPIRED;
            }
            long ends = checks.leaseEnd(path, answer.getStat(), data);
            if (ends == AheadChecks.EXPIRED) {
                return false;
            }
            checkAgain = ends - checkAgain < 0 ? ends : checkAgain;
        }
        signals.checkAgainAt(checkAgain);
        return true;
    }

    private CuratorFramework client() {
        return store.client();
    }
}
