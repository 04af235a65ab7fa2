package io.distlock.redis.internal.engine;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.internal.engine.ThreadOwnedHandles;
import io.distlock.internal.text.PrintableText;
import io.distlock.redis.internal.scripts.RedisKeys;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * What the kinds of one {@link io.distlock.redis.RedisLock} (plain, fair, read, path, several keys at once) and its
 * acquirers share: the holds and the observer; the checks of an acquisition's arguments and the closed state; the
 * naming of Redis keys; the start of the background work; and the current thread's scopes and view locks, which
 * acquisitions re-enter. One per lock, handed to the lock and to each kind, so that none of them reaches these back
 * through the lock.
 */
public final class LockKit {

    private final String name;
    private final RedisKeys keys;
    private final Holds holds;
    private final ObserverCalls observer;
    private final LockSubscriptions subscriptions;
    private final Runnable checkEviction;
    private final ThreadOwnedHandles threadOwned = new ThreadOwnedHandles();
    private volatile boolean closed;

    /**
     * @param name how the lock names itself in messages
     * @param holds the holds of the lock's exclusive, fair and read acquisitions
     * @param subscriptions where releases of other instances are heard, for the waiting room
     * @param checkEviction starts the eviction policy check in the background, once
     */
    public LockKit(
            String name,
            RedisKeys keys,
            Holds holds,
            ObserverCalls observer,
            LockSubscriptions subscriptions,
            Runnable checkEviction) {
        this.name = name;
        this.keys = keys;
        this.holds = holds;
        this.observer = observer;
        this.subscriptions = subscriptions;
        this.checkEviction = checkEviction;
    }

    /** Starts holds and serves their handles. */
    public Holds holds() {
        return holds;
    }

    /** Runs acquisitions of every kind under the lock's observer. */
    public ObserverCalls observer() {
        return observer;
    }

    /** The handles the lock's threads own through the views of any of its kinds. */
    public ThreadOwnedHandles threadOwned() {
        return threadOwned;
    }

    public String keyPrefix() {
        return keys.prefix();
    }

    public String lockKey(String key) {
        return keys.lockKey(key);
    }

    /**
     * Checks an acquisition's key and lease where the call enters, and resolves the lease there, once.
     *
     * @return the lease as asked and as Redis counts it
     */
    public LeaseAsked validate(String key, Lease lease) {
        if (closed) {
            throw closed(key);
        }
        RedisKeys.validate(key);
        if (lease == null) {
            throw new IllegalArgumentException("lease must not be null; use Lease.fixed(...) or Lease.renewed()");
        }
        return holds.resolve(lease);
    }

    public boolean isClosed() {
        return closed;
    }

    /** From now on acquisitions fail: the lock is closing. */
    public void markClosed() {
        closed = true;
    }

    public IllegalStateException closed(String key) {
        return new IllegalStateException("lock '" + PrintableText.of(key) + "' cannot be acquired: " + this
                + " is closed (the " + "application is shutting down)");
    }

    /**
     * Subscribes to release announcements and checks the eviction policy. Only once Redis has answered this lock, so
     * that their connections are never made while the first one is still being made.
     */
    public void startBackgroundWork() {
        subscriptions.ensureSubscribed();
        checkEviction.run();
    }

    /**
     * Waits until the release announcements that {@link #startBackgroundWork} subscribed to are heard.
     *
     * @return whether they were within the time
     * @throws InterruptedException if the thread was interrupted while waiting
     */
    public boolean awaitSubscribed(long nanos) throws InterruptedException {
        subscriptions.ensureSubscribed();
        return subscriptions.awaitSubscribed(nanos);
    }

    /**
     * Makes sure, in the background, that a waiter about to wait for {@code lockKey} (or a path tree's release key)
     * hears releases announced on the sharded channels of its slot, where the subscription shards. Subscribing only
     * where a waiter waits keeps an instance that takes many keys uncontended from subscribing to every slot.
     *
     * @param fair whether the waiter queues in the fair lock, which hands over on the instance's own channel
     */
    public void waitsFor(String lockKey, boolean fair) {
        subscriptions.ensureShardSubscribed(lockKey, fair);
    }

    /** Starts the eviction policy check in the background, once. */
    void checkEviction() {
        checkEviction.run();
    }

    /**
     * A nested acquisition inside a scope of this thread that holds the key (a {@link io.distlock.LockContext} scope,
     * or a {@link io.distlock.internal.engine.JavaLockView} lock), confirmed in Redis and sharing that hold. Anywhere
     * else, even on a thread that acquired the key before, an acquisition is a new owner's: the earlier handle may have
     * been handed to other code.
     *
     * <p>A scope that holds the key for reading cannot take it for writing: the two readers that tried would each wait
     * for the other forever, so that fails at once.
     *
     * @param deadline when the caller's wait ends, or {@link io.distlock.redis.internal.waiting.Waits#FOREVER} for the
     *     command timeout
     * @return the nested handle, or null if no scope of this thread holds the key
     * @throws IllegalStateException if the scope holds the key for reading
     */
    @Nullable
    public LockHandle reenter(String key, LeaseAsked lease, long deadline) {
        Hold outer = heldInScope(key);
        if (outer == null) {
            return null;
        }
        if (outer.isRead()) {
            throw new IllegalStateException(
                    "lock '" + PrintableText.of(key) + "' is held for reading in this scope and cannot be taken"
                            + " for writing (an upgrade could deadlock); release the read lock first, or take the write lock"
                            + " from the start");
        }
        return holds.join(outer, lease, deadline);
    }

    /**
     * The hold of the innermost scope of this thread that holds the key through this lock, if any; a semaphore's permit
     * of the same key is not the key's hold.
     */
    @Nullable
    public Hold heldInScope(String key) {
        return heldInScope(key, holds, hold -> !hold.isPermit());
    }

    /** The hold of the innermost scope of this thread that holds the key, among the holds {@code which} accepts. */
    @Nullable
    public Hold heldInScope(String key, Holds among, Predicate<Hold> which) {
        return threadOwned.heldByCurrentThread(key, among, which);
    }

    /** A nested handle on the hold of a scope, confirmed in Redis; null if that hold just ended. */
    @Nullable
    public LockHandle joinScope(Hold outer, LeaseAsked lease, long deadline) {
        return holds.join(outer, lease, deadline);
    }

    @Override
    public String toString() {
        return name + "[prefix=" + keys.prefix() + "]";
    }
}
