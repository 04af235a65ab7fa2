package io.distlock.zookeeper;

import io.distlock.LockBackendException;
import io.distlock.internal.path.PathRules;
import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLease;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.framework.api.transaction.CuratorTransactionResult;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * One acquisition of a path of a tree ({@link PathNodes}). It reads the tree node's children together with the tree
 * node's data version. While a child holds a conflicting path (an ancestor, a descendant or the path itself), it
 * watches those children and checks their leases on the server's clock as a key's waiter checks its holder's, removing
 * a child whose lease ran out. Once none is left, it claims the path in one transaction: a write to the tree's node at
 * the version read, and the creation of its own node, granted at once. A claim made in between by anyone in the tree
 * changed that version, so the transaction fails and the acquisition reads again: two claims are never judged against
 * the same children.
 *
 * <p>Waiters wait only for holders, never for each other, so a caller that holds one path while waiting for another
 * cannot be caught in a cycle of waiters; waiters are served in no particular order. The tree's node is a container,
 * which the server removes once empty and which may then be made again with its version counted from 0: the claim's
 * answer carries the tree node's creation zxid, and a claim made in a node other than the one read is given up.
 */
final class ZooKeeperPathAcquisition implements LeaseStore.Acquisition {

    /** Each round follows a change in the tree; this many in one call means heavy churn, so the caller waits. */
    private static final int ROUNDS = 20;

    private final ZooKeeperLeaseStore store;
    /** The canonical path, which names the acquisition in messages, as it is the tree's lock's key. */
    private final String key;

    private final List<String> segments;
    private final String treePath;
    private final String owner;
    private final String holder;
    private final long leaseMillis;

    private final AheadChecks checks;
    private final WaiterSignals signals;
    private final Set<String> watched = new HashSet<>();
    /** A claim whose answer did not come in time: it may still succeed, and is undone when Curator reports it. */
    private @Nullable CompletableFuture<CuratorEvent> pendingClaim;

    private boolean granted;

    ZooKeeperPathAcquisition(
            ZooKeeperLeaseStore store,
            List<String> segments,
            String treePath,
            String owner,
            String holder,
            long leaseMillis) {
        this.store = store;
        this.key = PathRules.join(segments);
        this.segments = segments;
        this.treePath = treePath;
        this.owner = owner;
        this.holder = holder;
        this.leaseMillis = leaseMillis;
        this.checks = new AheadChecks(store, key);
        this.signals = new WaiterSignals(store.connection());
    }

    @Override
    public @Nullable StoreLease tryTake() {
        signals.startTry();
        for (int round = 0; round < ROUNDS; round++) {
            signals.startRound();
            TreeRead tree = readTree();
            if (tree == null) {
                makeTree();
                continue;
            }
            List<String> conflicting = tree.children().stream()
                    .filter(name -> PathNodes.conflict(name, segments))
                    .toList();
            if (conflicting.isEmpty()) {
                StoreLease lease = claim(tree);
                if (lease != null) {
                    return lease;
                }
            } else if (waitFor(conflicting)) {
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
        for (String path : watched) {
            checks.forgetWatch(path, signals.watcher());
        }
        CompletableFuture<CuratorEvent> claim = pendingClaim;
        if (!granted && claim != null) {
            claim.whenCompleteAsync(
                    (answer, failure) -> undoClaim(answer), store.threads().cleanup());
        }
    }

    /** The tree's children and its node's state, read at once; null if the tree's node does not exist. */
    private @Nullable TreeRead readTree() {
        CuratorEvent answer = store.calls()
                .await(
                        key,
                        "reading the tree",
                        cb -> store.client().getChildren().inBackground(cb).forPath(treePath));
        return switch (Calls.code(answer)) {
            case OK ->
                new TreeRead(
                        answer.getChildren(),
                        answer.getStat().getVersion(),
                        answer.getStat().getCzxid());
            case NONODE -> null;
            default -> throw Calls.failure(key, "reading the tree", answer);
        };
    }

    private void makeTree() {
        CuratorEvent answer = store.calls()
                .await(
                        key,
                        "making the tree's node",
                        cb -> store.client()
                                .create()
                                .creatingParentContainersIfNeeded()
                                .withMode(CreateMode.CONTAINER)
                                .inBackground(cb)
                                .forPath(treePath));
        if (Calls.code(answer) != Code.OK && Calls.code(answer) != Code.NODEEXISTS) {
            throw Calls.failure(key, "making the tree's node", answer);
        }
    }

    /**
     * Claims the path in the tree as read: writes the tree's node at the version read and creates this acquisition's
     * granted node in one transaction. Null if the tree changed since it was read, so the caller reads it again.
     */
    private @Nullable StoreLease claim(TreeRead tree) {
        byte[] data = LeaseData.held(leaseMillis, owner, 0, holder).bytes();
        List<CuratorOp> operations;
        try {
            operations = List.of(
                    store.client()
                            .transactionOp()
                            .setData()
                            .withVersion(tree.version())
                            .forPath(treePath, new byte[0]),
                    store.client()
                            .transactionOp()
                            .create()
                            .withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
                            .forPath(ZKPaths.makePath(treePath, PathNodes.namePrefix(segments)), data));
        } catch (Exception e) {
            throw new LockBackendException(key, "claiming the path: could not be sent to ZooKeeper", e);
        }
        long troubles = store.connection().troubles();
        long sent = System.nanoTime();
        CompletableFuture<CuratorEvent> started = store.calls()
                .start(
                        key,
                        "claiming the path",
                        cb -> store.client().transaction().inBackground(cb).forOperations(operations));
        CuratorEvent answer;
        try {
            answer = store.calls().await(key, "claiming the path", started);
        } catch (RuntimeException e) {
            pendingClaim = started;
            throw e;
        }
        switch (Calls.code(answer)) {
            case OK -> {}
            // Another claim came first, or the tree's node went: read again. A claim of ours that Curator sent again
            // after a lost connection fails so too, though the first one was made; waitFor removes its node.
            case BADVERSION, NONODE -> {
                return null;
            }
            default -> throw Calls.failure(key, "claiming the path", answer);
        }
        List<CuratorTransactionResult> results = answer.getOpResults();
        Stat written = results.get(0).getResultStat();
        String own = results.get(1).getResultPath();
        if (written.getCzxid() != tree.czxid()) {
            Queue.remove(store, key, own);
            return null;
        }
        ZooKeeperLease lease = new ZooKeeperLease(store, key, own, owner, holder, createdWith(written), sent);
        if (!lease.watch()) {
            return null;
        }
        granted = true;
        store.connection().hold(lease, troubles);
        return lease;
    }

    /**
     * The state of a node created in the transaction that wrote the tree's node: all writes of one transaction share
     * its zxid and time, so the node's creation zxid, the fencing token, is the tree's new {@code mzxid}, and its
     * {@code mtime}, the lease's start, is the tree's. A transaction's answer carries no state of a node it creates.
     */
    private static Stat createdWith(Stat tree) {
        Stat created = new Stat();
        created.setCzxid(tree.getMzxid());
        created.setMzxid(tree.getMzxid());
        created.setCtime(tree.getMtime());
        created.setMtime(tree.getMtime());
        return created;
    }

    /**
     * Watches the children that hold conflicting paths, and checks their leases against the server's clock, removing
     * a child whose lease ran out. A child of this acquisition's own, left by a claim whose answer was lost, is removed.
     * False if the tree should be read again.
     */
    private boolean waitFor(List<String> conflicting) {
        // A child no longer read is gone, and its watch fired with it: only the current ones need forgetting later.
        watched.clear();
        long checkAgain = System.nanoTime() + checks.unclaimedGraceNanos();
        for (String name : conflicting) {
            String path = ZKPaths.makePath(treePath, name);
            CuratorEvent answer = store.calls()
                    .await(
                            key,
                            "watching a holder",
                            cb -> store.client()
                                    .getData()
                                    .usingWatcher(signals.watcher())
                                    .inBackground(cb)
                                    .forPath(path));
            switch (Calls.code(answer)) {
                case OK -> watched.add(path);
                case NONODE -> {
                    return false;
                }
                default -> throw Calls.failure(key, "watching a holder", answer);
            }
            LeaseData held = LeaseData.parse(answer.getData());
            if (held == null || !held.granted()) {
                // Not written by this store: it conflicts with every path, and is looked at again after the grace.
                continue;
            }
            if (held.owner().equals(owner)) {
                Queue.remove(store, key, path);
                return false;
            }
            long ends = checks.leaseEnd(path, answer.getStat(), held);
            if (ends == AheadChecks.EXPIRED) {
                return false;
            }
            checkAgain = ends - checkAgain < 0 ? ends : checkAgain;
        }
        signals.checkAgainAt(checkAgain);
        return true;
    }

    /** Removes the node of a claim given up on, or every node of this owner's when the claim's outcome is unknown. */
    private void undoClaim(@Nullable CuratorEvent answer) {
        if (answer != null && Calls.code(answer) == Code.OK) {
            Queue.remove(store, key, answer.getOpResults().get(1).getResultPath());
        } else {
            // A failed claim made nothing, unless Curator had sent it again after a first one that was made.
            Queue.removeOwnerNodes(store, key, treePath, owner);
        }
    }

    /**
     * The tree's children and its node's state as read together.
     *
     * @param version the tree node's data version, which every claim in the tree raises
     * @param czxid the tree node's creation zxid, which tells a node made again from the one read
     */
    private record TreeRead(List<String> children, int version, long czxid) {}
}
