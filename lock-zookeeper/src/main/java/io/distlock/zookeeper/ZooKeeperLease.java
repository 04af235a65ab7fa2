package io.distlock.zookeeper;

import io.distlock.LockLostException.Reason;
import io.distlock.internal.text.PrintableText;
import io.distlock.store.StoreLease;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A granted queue node. Every change is made with the node's version, so a node that a waiter removed for its expired
 * lease (and maybe recreated for another owner) is never touched. A watch on the node reports its removal. Each write
 * of the lease (the grant, every extension) is kept as a reading of the server's clock: its {@code mtime}, stamped
 * after the request was sent.
 */
final class ZooKeeperLease implements StoreLease {

    private static final Logger log = LoggerFactory.getLogger(ZooKeeperLease.class);

    private final ZooKeeperLeaseStore store;
    private final String key;
    private final String path;
    private final String basePath;
    private final String owner;
    private final String holder;
    private final long grantedAtMillis;
    private final long fencingToken;
    private final Watcher watcher = this::onNodeEvent;
    private final AtomicBoolean ended = new AtomicBoolean();
    private final AtomicBoolean reported = new AtomicBoolean();
    private volatile int version;
    private volatile ServerClock.Reading written;
    private volatile @Nullable Reason lost;
    private volatile @Nullable Consumer<Reason> onGone;

    /**
     * @param granted the node's state after the write that granted it
     * @param sentNanos the {@link System#nanoTime()} at which that write was sent
     */
    ZooKeeperLease(
            ZooKeeperLeaseStore store,
            String key,
            String path,
            String owner,
            String holder,
            Stat granted,
            long sentNanos) {
        this.store = store;
        this.key = key;
        this.path = path;
        this.basePath =
                ZKPaths.getPathAndNode(ZKPaths.getPathAndNode(path).getPath()).getPath();
        this.owner = owner;
        this.holder = holder;
        this.grantedAtMillis = granted.getMtime();
        this.fencingToken = granted.getCzxid();
        this.version = granted.getVersion();
        this.written = new ServerClock.Reading(granted.getMtime(), sentNanos);
    }

    /** The node's creation zxid: later than every earlier holder's, as that holder's node was created before. */
    @Override
    public long fencingToken() {
        return fencingToken;
    }

    @Override
    public boolean extend(Duration lease) {
        if (ended.get()) {
            return false;
        }
        byte[] data =
                LeaseData.held(lease.toMillis(), owner, grantedAtMillis, holder).bytes();
        int expected = version;
        long sent = System.nanoTime();
        CuratorEvent answer = store.calls()
                .await(
                        key,
                        "extending the lease",
                        cb -> client().setData()
                                .withVersion(expected)
                                .inBackground(cb)
                                .forPath(path, data));
        return switch (Calls.code(answer)) {
            case OK -> {
                version = answer.getStat().getVersion();
                written = new ServerClock.Reading(answer.getStat().getMtime(), sent);
                yield !ended.get();
            }
            case NONODE, BADVERSION -> false;
            default -> throw Calls.failure(key, "extending the lease", answer);
        };
    }

    /**
     * Reads the node. The key is still this owner's while the node is as this owner last wrote it (same version,
     * granted, this owner's token) and its lease runs on the server's clock. The lease is judged as the waiter behind
     * judges it before removing the node: the server's clock is read, by a write to the clock node, only when the time
     * since this owner's last write could have used the lease up. A hold that the connection's trouble or the node's
     * watch already ended answers with that reason, without a read.
     */
    @Override
    public Optional<Reason> checkOwned() {
        Reason known = lost;
        if (known != null) {
            return Optional.of(known);
        }
        if (ended.get()) {
            return Optional.of(Reason.KEY_GONE);
        }
        CuratorEvent answer = store.calls()
                .await(
                        key,
                        "confirming the hold",
                        cb -> client().getData().inBackground(cb).forPath(path));
        switch (Calls.code(answer)) {
            case OK -> {}
            case NONODE -> {
                return Optional.of(endAsGone(OperatorRecords.recorded(store, key, basePath, fencingToken)));
            }
            default -> throw Calls.failure(key, "confirming the hold", answer);
        }
        LeaseData data = LeaseData.parse(answer.getData());
        Stat stat = answer.getStat();
        if (data == null || !data.granted() || !data.owner().equals(owner) || stat.getVersion() != version) {
            return Optional.of(Reason.KEY_GONE);
        }
        long expiresAt = stat.getMtime() + data.leaseMillis();
        if (written.earliestLocalNanos(expiresAt) - System.nanoTime() <= 0
                && store.clock().read(key).serverMillis() >= expiresAt) {
            return Optional.of(Reason.KEY_GONE);
        }
        return Optional.empty();
    }

    @Override
    public boolean release() {
        if (!ended.compareAndSet(false, true)) {
            return false;
        }
        store.connection().forget(this);
        int expected = version;
        CuratorEvent answer = store.calls()
                .await(
                        key,
                        "releasing",
                        cb -> client().delete()
                                .guaranteed()
                                .withVersion(expected)
                                .inBackground(cb)
                                .forPath(path));
        return switch (Calls.code(answer)) {
            case OK -> true;
            case NONODE -> {
                if (OperatorRecords.recorded(store, key, basePath, fencingToken)) {
                    synchronized (this) {
                        lost = Reason.RELEASED_BY_OPERATOR;
                    }
                    OperatorRecords.forget(store, key, basePath, fencingToken);
                }
                yield false;
            }
            case BADVERSION -> false;
            default -> throw Calls.failure(key, "releasing", answer);
        };
    }

    @Override
    public void whenGone(Runnable gone) {
        whenGone((Reason reason) -> gone.run());
    }

    /**
     * Reports {@link Reason#KEY_GONE} when the node was removed, {@link Reason#RELEASED_BY_OPERATOR} when an operator
     * removed it, {@link Reason#CONNECTION_SUSPENDED} on trouble.
     */
    @Override
    public void whenGone(Consumer<Reason> gone) {
        onGone = gone;
        if (lost != null) {
            report();
        }
    }

    /**
     * Starts watching the node; false if it is already gone. The watch is set after the grant, and a removal in
     * between shows as a missing node here.
     */
    boolean watch() {
        CuratorEvent answer = store.calls().await(key, "watching the held node", this::checkAndWatch);
        return switch (Calls.code(answer)) {
            case OK -> answer.getStat() != null;
            case NONODE -> false;
            default -> throw Calls.failure(key, "watching the held node", answer);
        };
    }

    /**
     * The connection had trouble: the hold counts as lost, and the node is removed once the connection is back, so a
     * session that survived does not keep the key from the others until the lease runs out.
     */
    void connectionLost(Reason reason) {
        if (end(reason)) {
            try {
                client().delete()
                        .guaranteed()
                        .withVersion(version)
                        .inBackground()
                        .forPath(path);
            } catch (Exception e) {
                log.debug(
                        "Could not ask to remove {} for key {} after the connection broke",
                        path,
                        PrintableText.of(key),
                        e);
            }
        }
    }

    private void onNodeEvent(WatchedEvent event) {
        if (ended.get()) {
            return;
        }
        if (event.getType() == Watcher.Event.EventType.NodeDeleted) {
            endAsGone();
        } else if (event.getType() == Watcher.Event.EventType.NodeDataChanged) {
            // Watches fire once; our own extensions change the node, so the watch is set again.
            try {
                checkAndWatch((c, answer) -> {
                    if (Calls.code(answer) == Code.NONODE
                            || (Calls.code(answer) == Code.OK && answer.getStat() == null)) {
                        endAsGone();
                    }
                });
            } catch (Exception e) {
                log.debug("Could not watch {} for key {} again", path, PrintableText.of(key), e);
            }
        }
    }

    private void checkAndWatch(org.apache.curator.framework.api.BackgroundCallback callback) throws Exception {
        client().checkExists().usingWatcher(watcher).inBackground(callback).forPath(path);
    }

    /**
     * Ends the hold whose node is gone, as freed by an operator if an operator's record says so, else as {@link
     * Reason#KEY_GONE}. It runs on Curator's event thread, so the record is asked for in the background.
     */
    private void endAsGone() {
        OperatorRecords.recordedInBackground(store, key, basePath, fencingToken, this::endAsGone);
    }

    /**
     * Ends the hold whose node is gone, and forgets the operator's record once the reason is set.
     *
     * @param byOperator whether an operator's record names this hold
     * @return the reason the hold ended with, which another caller that ended it first may have set
     */
    private Reason endAsGone(boolean byOperator) {
        Reason reason = byOperator ? Reason.RELEASED_BY_OPERATOR : Reason.KEY_GONE;
        end(reason);
        if (byOperator) {
            OperatorRecords.forget(store, key, basePath, fencingToken);
        }
        synchronized (this) {
            return lost != null ? lost : reason;
        }
    }

    /** Ends the hold as lost; true for the one caller that ended it. */
    private boolean end(Reason reason) {
        synchronized (this) {
            if (!ended.compareAndSet(false, true)) {
                return false;
            }
            lost = reason;
        }
        store.connection().forget(this);
        if (onGone != null) {
            report();
        }
        return true;
    }

    private void report() {
        Consumer<Reason> gone = onGone;
        Reason reason = lost;
        if (gone != null && reason != null && reported.compareAndSet(false, true)) {
            store.threads().report(() -> gone.accept(reason));
        }
    }

    private CuratorFramework client() {
        return store.client();
    }
}
