package io.distlock;

import io.distlock.internal.engine.KeyHolders;
import java.time.Duration;
import java.util.Collection;
import java.util.Optional;
import java.util.concurrent.CompletionStage;

/**
 * Named distributed locks: at most one owner at a time holds a key, across every thread and process that uses the same
 * store (for {@code RedisLock}, the same Redis and key prefix).
 *
 * <p>Each successful acquisition returns a {@link LockHandle} with a {@link Lease}, so a crashed holder never blocks
 * others for longer than its lease; without a lease argument, the lease is {@linkplain Lease#renewed() auto-renewed}.
 *
 * <h2>Waiting</h2>
 * {@code tryAcquire} without a wait returns at once; with a wait it keeps trying until the wait ends and then returns
 * empty; {@code acquire} waits as long as it takes. Waiting threads are woken when the holder releases; they do not
 * poll. Waiting forms are interruptible: they throw {@link InterruptedException} and leave nothing held.
 *
 * <h2>Without blocking a thread</h2>
 * {@link #tryAcquireAsync} and {@link #acquireAsync} return a {@link CompletionStage} at once and complete it when the
 * lock is acquired or the wait ends, for asynchronous and reactive code. The handle they give is like any other: it may
 * be released from any thread, and its lease is renewed and its loss reported until then. Cancelling the returned
 * stage ends the wait, and a grant that arrives after the cancel is released again. An asynchronous acquisition is
 * always a new owner's.
 *
 * <h2>Reentrancy: only inside a scope that holds the key</h2>
 * An acquisition re-enters a hold only when the current thread is working inside a scope that holds the same key
 * through the same {@code Lock} instance: the work of {@link #callWithLock} or {@link #runWithLock}, a {@link
 * DistributedLock @DistributedLock} method, a {@link LockContext#enter(LockHandle)} scope, or a {@linkplain
 * #asJavaLock(String, Lease) JDK lock view} this thread has locked. A nested acquisition does not wait for the key: it
 * asks the store whether the hold still owns the key (one round trip, within the caller's wait, or within the client's
 * call timeout for a form without one), succeeds once the store confirms it, and shares the hold's owner token and
 * fencing token; the key is released when the last handle of the hold is released, in whatever order. If the store
 * says the hold no longer owns the key (it was deleted, taken over, or its lease ran out on the store's clock), the
 * nested acquisition throws {@link LockLostException} and the hold is reported lost, as a failed renewal reports it:
 * {@link LockHandle#isLost()} turns true and the {@link LockHandle#onLost} callbacks run. If the store cannot answer,
 * it throws {@link LockBackendException}, as any acquisition does, and the hold keeps only the handles it had.
 *
 * <p>Everywhere else, an acquisition is a new owner's, even on a thread that acquired the key earlier: that thread may
 * have handed its {@link LockHandle} to a pool, a {@code CompletableFuture} stage or another thread, which still works
 * under it. So a plain {@code acquire} of a key this thread holds through a plain handle waits like anyone else's (with
 * no wait, it fails; waiting without limit for one's own lock waits until that lock is released or its lease runs out).
 * Another thread, or another {@code Lock} instance in the same JVM, is always another owner. A handle that expired or
 * was never released never affects later acquisitions.
 *
 * <h2>Nested leases</h2>
 * Each handle keeps the lease it asked for. While any open handle of a hold asked for an {@linkplain Lease#renewed()
 * auto-renewed} lease, the hold is renewed; once only fixed leases are left, renewal stops. The key's remaining lease
 * is never shortened by a nested acquisition or a renewal: it is at least as long as the longest lease an open handle
 * asked for. {@link LockHandle#extend(Duration)} sets it exactly.
 *
 * <h2>Failures and shutdown</h2>
 * Invalid arguments throw {@link IllegalArgumentException} naming the argument and what is allowed. When the store
 * cannot be asked, methods throw {@link LockBackendException}, never a plain "not acquired". A waiting form ends no
 * later than its wait time, or 200 ms after it when an attempt is still on its way: if the store answered earlier
 * attempts of the same call, the lock counts as not acquired; if the store never answered, {@link LockBackendException}
 * is thrown. An abandoned attempt is always followed by a release with its owner token, which the store runs after the
 * attempt, so a lock granted after its caller gave up is freed again at once. An implementation that is closed (the
 * application shuts down) refuses new acquisitions and wakes waiting ones with {@link IllegalStateException}; locks
 * still held keep their leases for a grace period and are then reported lost.
 *
 * <h2>Several keys at once</h2>
 * {@link #tryAcquireAll}, {@link #acquireAll} and {@link #callWithLocks} take several keys all or none, for work that
 * touches several resources, such as both SKUs of a stock transfer. Where the store can, they first try to take every
 * key in one atomic step (one script on one Redis server, or on one cluster slot; see {@link
 * io.distlock.spi.KeysAtOnce}). Otherwise, or when a key was held and the caller waits, they take the keys one by one
 * in one global order (the keys' natural order) and give back what they took when a key cannot be had, so two callers
 * with overlapping sets never deadlock. Each key is an ordinary acquisition, with its own lease, renewal, loss
 * reporting and fencing token, and re-enters like any other. A key's lease counts from its own acquisition. One call
 * takes at most {@value #MAX_KEYS_AT_ONCE} keys, so that a collection built from a request cannot grow without bound.
 */
public interface Lock {

    /** The longest key accepted, in characters: a key is any non-blank text up to it, a value never evaluated. */
    int MAX_KEY_LENGTH = 1024;

    /** The most keys that one multi-key call takes, duplicates included; see "Several keys at once" above. */
    int MAX_KEYS_AT_ONCE = 100;

    /**
     * Takes the lock if it is free, with an auto-renewed lease; returns at once.
     *
     * @param key the lock's name
     * @return the handle, or empty if someone else holds the lock
     * @throws IllegalArgumentException if the key is null, blank or too long
     * @throws LockBackendException if the store could not be asked
     * @throws LockLostException if a scope of this thread holds the key but that hold was lost
     * @throws IllegalStateException if the lock is closed
     */
    default Optional<LockHandle> tryAcquire(String key) {
        return tryAcquire(key, Lease.renewed());
    }

    /**
     * Takes the lock if it is free; returns at once.
     *
     * @param key the lock's name
     * @param lease the lease of the new hold
     * @return the handle, or empty if someone else holds the lock
     * @throws IllegalArgumentException if the key is null, blank or too long, or the lease is null
     * @throws LockBackendException if the store could not be asked
     * @throws LockLostException if a scope of this thread holds the key but that hold was lost
     * @throws IllegalStateException if the lock is closed
     */
    Optional<LockHandle> tryAcquire(String key, Lease lease);

    /**
     * Takes the lock with an auto-renewed lease, waiting up to {@code wait} for the holder to release it.
     *
     * @param key the lock's name
     * @param wait how long to wait at most; {@link Duration#ZERO} tries once
     * @return the handle, or empty if the lock stayed held for the whole wait
     * @throws IllegalArgumentException if the key is invalid, or the wait is null or negative
     * @throws InterruptedException if the thread was interrupted while waiting; nothing is held then
     * @throws LockBackendException if the store could not be asked, at the latest when the wait ends
     * @throws LockLostException if a scope of this thread holds the key but that hold was lost
     * @throws IllegalStateException if the lock is closed, also while waiting
     */
    default Optional<LockHandle> tryAcquire(String key, Duration wait) throws InterruptedException {
        return tryAcquire(key, Lease.renewed(), wait);
    }

    /**
     * Takes the lock, waiting up to {@code wait} for the holder to release it.
     *
     * @param key the lock's name
     * @param lease the lease of the new hold
     * @param wait how long to wait at most; {@link Duration#ZERO} tries once
     * @return the handle, or empty if the lock stayed held for the whole wait
     * @throws IllegalArgumentException if the key, lease or wait is invalid
     * @throws InterruptedException if the thread was interrupted while waiting; nothing is held then
     * @throws LockBackendException if the store could not be asked, at the latest when the wait ends
     * @throws LockLostException if a scope of this thread holds the key but that hold was lost
     * @throws IllegalStateException if the lock is closed, also while waiting
     */
    Optional<LockHandle> tryAcquire(String key, Lease lease, Duration wait) throws InterruptedException;

    /**
     * Takes the lock with an auto-renewed lease, waiting as long as it takes.
     *
     * @param key the lock's name
     * @return the handle
     * @throws IllegalArgumentException if the key is invalid
     * @throws InterruptedException if the thread was interrupted while waiting; nothing is held then
     * @throws LockBackendException if the store could not be asked
     * @throws LockLostException if a scope of this thread holds the key but that hold was lost
     * @throws IllegalStateException if the lock is closed, also while waiting
     */
    default LockHandle acquire(String key) throws InterruptedException {
        return acquire(key, Lease.renewed());
    }

    /**
     * Takes the lock, waiting as long as it takes.
     *
     * @param key the lock's name
     * @param lease the lease of the new hold
     * @return the handle
     * @throws IllegalArgumentException if the key or lease is invalid
     * @throws InterruptedException if the thread was interrupted while waiting; nothing is held then
     * @throws LockBackendException if the store could not be asked
     * @throws LockLostException if a scope of this thread holds the key but that hold was lost
     * @throws IllegalStateException if the lock is closed, also while waiting
     */
    LockHandle acquire(String key, Lease lease) throws InterruptedException;

    /**
     * Takes the lock without blocking the calling thread, waiting up to {@code wait} for the holder to release it.
     *
     * <p>The returned stage completes with the handle, or with empty if the lock stayed held for the whole wait. It
     * fails with {@link IllegalArgumentException} if the key, lease or wait is invalid, with {@link
     * LockBackendException} if the store could not be asked (at the latest when the wait ends, as for {@link
     * #tryAcquire(String, Lease, Duration)}), and with {@link IllegalStateException} if the lock is closed, also while
     * waiting. No thread of the caller waits, so interrupts do not apply.
     *
     * <p>To give up early, cancel this stage (through {@link CompletionStage#toCompletableFuture()}), not a stage that
     * depends on it: the wait ends and nothing is held; a grant that arrives after the cancel is released again. The
     * same holds if anyone else completes the stage first.
     *
     * <p>An asynchronous acquisition never re-enters a scope of the calling thread, since that scope may end before the
     * stage does. Asked for a key that a scope of the calling thread holds, the stage fails at once
     * with {@link IllegalStateException}: waiting for that scope from inside it might never end.
     *
     * <p>This default waits with {@link #tryAcquire(String, Lease, Duration)} on a thread of its own, which the cancel
     * interrupts: a virtual thread on Java 21 and later, else one of a pool of at most 512 that the JVM's locks share;
     * with 512 waits under way, the stage fails at once with {@link java.util.concurrent.RejectedExecutionException}
     * and the key is not tried. {@code RedisLock} overrides it and waits without any thread.
     *
     * @param key the lock's name
     * @param lease the lease of the new hold
     * @param wait how long to wait at most; {@link Duration#ZERO} tries once
     * @return a stage that completes with the handle, or empty if the lock stayed held for the whole wait
     */
    default CompletionStage<Optional<LockHandle>> tryAcquireAsync(String key, Lease lease, Duration wait) {
        return AsyncAcquisitions.onThreadOfItsOwn(this, key, lease, wait);
    }

    /**
     * Takes the lock without blocking the calling thread, like {@link #tryAcquireAsync}, but fails the stage with
     * {@link LockNotAcquiredException} when the lock stayed held for the whole wait. Cancelling the returned stage
     * cancels the acquisition.
     *
     * @param key the lock's name
     * @param lease the lease of the new hold
     * @param wait how long to wait at most; {@link Duration#ZERO} tries once
     * @return a stage that completes with the handle, or fails as {@link #tryAcquireAsync} does, or with {@link
     *     LockNotAcquiredException}
     */
    default CompletionStage<LockHandle> acquireAsync(String key, Lease lease, Duration wait) {
        return AsyncAcquisitions.orNotAcquired(tryAcquireAsync(key, lease, wait), key, wait);
    }

    /**
     * Runs {@code work} while holding the lock, waiting up to {@code wait} for it, and releases the lock afterwards
     * whether the work returned or threw.
     *
     * <p>The held lock is available to the work through {@link LockContext#current()}. If the work throws, its
     * exception is thrown and a failure to release is attached to it as suppressed. If the work returns but the lock
     * was lost meanwhile, {@link LockLostException} is thrown instead of the result. If the work returns and only the
     * store failed to confirm the release, the failure is logged and the result returned: the work did run under the
     * lock, which then expires with its lease.
     *
     * @param key the lock's name
     * @param lease the lease of the hold
     * @param wait how long to wait for the lock at most
     * @param work what to run under the lock
     * @param <T> the result type
     * @param <X> the work's checked exception
     * @return the work's result
     * @throws X the work's own exception
     * @throws LockNotAcquiredException if the lock stayed held for the whole wait; the work did not run
     * @throws LockLostException if the lock was lost before the work finished: a {@link LockLostAfterCommitException}
     *     if a transaction inside the work had committed by then, since the work must not simply be retried
     * @throws InterruptedException if interrupted while waiting for the lock; the work did not run
     * @throws LockBackendException if the store could not be asked
     */
    default <T, X extends Throwable> T callWithLock(String key, Lease lease, Duration wait, LockedCallable<T, X> work)
            throws X, InterruptedException {
        if (work == null) {
            throw new IllegalArgumentException("work must not be null");
        }
        LockHandle handle = tryAcquire(key, lease, wait).orElseThrow(() -> KeyHolders.notAcquired(this, key, wait));
        return LockedExecution.call(handle, OnLockLost.THROW, work);
    }

    /**
     * Runs {@code work} while holding the lock, like {@link #callWithLock(String, Lease, Duration, LockedCallable)}.
     *
     * @param key the lock's name
     * @param lease the lease of the hold
     * @param wait how long to wait for the lock at most
     * @param work what to run under the lock
     * @param <X> the work's checked exception
     * @throws X the work's own exception
     * @throws LockNotAcquiredException if the lock stayed held for the whole wait; the work did not run
     * @throws LockLostException if the lock was lost before the work finished: a {@link LockLostAfterCommitException}
     *     if a transaction inside the work had committed by then, since the work must not simply be retried
     * @throws InterruptedException if interrupted while waiting for the lock; the work did not run
     * @throws LockBackendException if the store could not be asked
     */
    default <X extends Throwable> void runWithLock(String key, Lease lease, Duration wait, LockedRunnable<X> work)
            throws X, InterruptedException {
        if (work == null) {
            throw new IllegalArgumentException("work must not be null");
        }
        callWithLock(key, lease, wait, () -> {
            work.run();
            return null;
        });
    }

    /**
     * A {@link java.util.concurrent.locks.Lock} view of one key, for code written against the JDK interface. It is
     * owned by threads, as that interface expects: {@code unlock} must be called through this view by the thread that
     * locked, as many times as it locked; otherwise it throws {@link IllegalMonitorStateException}, and when the lock
     * was lost it throws {@link LockLostException}. {@code newCondition} is not supported. The methods that cannot
     * throw {@link InterruptedException} keep waiting when interrupted and restore the thread's interrupt status before
     * returning.
     *
     * @param key the lock's name
     * @param lease the lease of every acquisition through the view
     * @return the view; while a thread holds the key through it, that thread's other acquisitions of the key through
     *     this {@code Lock} (through any view, or plain) re-enter the hold
     * @throws IllegalArgumentException if the key or lease is invalid
     */
    java.util.concurrent.locks.Lock asJavaLock(String key, Lease lease);

    /**
     * The locks of another {@link Kind} on this store and keys; an implementation offers a kind by overriding this.
     *
     * @param kind the kind, such as {@link Kind#FAIR}
     * @param <V> what the kind hands out
     * @return the kind's locks, or empty if this lock's backend lacks the kind; this default offers none
     */
    default <V> Optional<V> kind(Kind<V> kind) {
        return Optional.empty();
    }

    /**
     * The fair lock of this lock's keys ({@link Kind#FAIR}).
     *
     * @return {@code Kind.FAIR.of(this)}
     * @throws UnsupportedOperationException if the backend lacks the kind
     */
    default Lock fair() {
        return Kind.FAIR.of(this);
    }

    /**
     * The read side of this lock's keys ({@link Kind#READ}).
     *
     * @return {@code Kind.READ.of(this)}
     * @throws UnsupportedOperationException if the backend lacks the kind
     */
    default Lock reading() {
        return Kind.READ.of(this);
    }

    /**
     * The path lock of a named tree ({@link Kind#PATH}).
     *
     * @param tree the tree's name, such as {@code project:42}
     * @return {@code Kind.PATH.of(this).tree(tree)}
     * @throws IllegalArgumentException if the tree's name is invalid
     * @throws UnsupportedOperationException if the backend lacks the kind
     */
    default Lock tree(String tree) {
        return Kind.PATH.of(this).tree(tree);
    }

    /**
     * Takes several keys all or none, waiting up to {@code wait} in all; see "Several keys at once" above.
     *
     * @param keys the locks' names; duplicates are taken once
     * @param lease the lease of each key's hold
     * @param wait how long to wait at most, for all the keys together; {@link Duration#ZERO} tries each key once
     * @return the handle of every key, or empty if some key stayed held for the rest of the wait; nothing is held then
     * @throws IllegalArgumentException if {@code keys} is null or empty, has more than {@link #MAX_KEYS_AT_ONCE}
     *     elements, or holds an invalid key, or the lease or wait is invalid
     * @throws InterruptedException if the thread was interrupted while waiting; nothing is held then
     * @throws LockBackendException if the store could not be asked; nothing is held then, except keys whose release
     *     failed too, which expire with their leases
     * @throws LockLostException if a scope of this thread holds one of the keys but that hold was lost
     * @throws IllegalStateException if the lock is closed, also while waiting
     */
    default Optional<MultiLockHandle> tryAcquireAll(Collection<String> keys, Lease lease, Duration wait)
            throws InterruptedException {
        return Optional.ofNullable(
                MultiKeyAcquisition.tryAcquire(this, keys, lease, wait).held());
    }

    /**
     * Takes several keys all or none, waiting as long as it takes; see "Several keys at once" above.
     *
     * @param keys the locks' names; duplicates are taken once
     * @param lease the lease of each key's hold
     * @return the handle of every key
     * @throws IllegalArgumentException if {@code keys} is null or empty, has more than {@link #MAX_KEYS_AT_ONCE}
     *     elements, or holds an invalid key, or the lease is null
     * @throws InterruptedException if the thread was interrupted while waiting; nothing is held then
     * @throws LockBackendException if the store could not be asked; nothing is held then, except keys whose release
     *     failed too, which expire with their leases
     * @throws LockLostException if a scope of this thread holds one of the keys but that hold was lost
     * @throws IllegalStateException if the lock is closed, also while waiting
     */
    default MultiLockHandle acquireAll(Collection<String> keys, Lease lease) throws InterruptedException {
        return MultiKeyAcquisition.acquire(this, keys, lease);
    }

    /**
     * Runs {@code work} while holding several keys, taken all or none within {@code wait}, and releases them
     * afterwards, like {@link #callWithLock} does for one key. Each key's handle is available to the work through
     * {@link LockContext#current(String)}.
     *
     * @param keys the locks' names; duplicates are taken once
     * @param lease the lease of each key's hold
     * @param wait how long to wait for all the keys together at most
     * @param work what to run under the locks
     * @param <T> the result type
     * @param <X> the work's checked exception
     * @return the work's result
     * @throws X the work's own exception
     * @throws IllegalArgumentException if the keys, lease or wait are invalid, as for {@link #tryAcquireAll}
     * @throws LockNotAcquiredException naming the key that stayed held for the rest of the wait; the work did not run
     * @throws LockLostException if any key was lost before the work finished
     * @throws InterruptedException if interrupted while waiting for the locks; the work did not run
     * @throws LockBackendException if the store could not be asked
     */
    default <T, X extends Throwable> T callWithLocks(
            Collection<String> keys, Lease lease, Duration wait, LockedCallable<T, X> work)
            throws X, InterruptedException {
        MultiKeyAcquisition.Outcome outcome = MultiKeyAcquisition.tryAcquire(this, keys, lease, wait);
        if (outcome.held() == null) {
            throw new LockNotAcquiredException(outcome.busy(), wait);
        }
        return LockedExecution.call(outcome.held(), OnLockLost.THROW, work);
    }
}
