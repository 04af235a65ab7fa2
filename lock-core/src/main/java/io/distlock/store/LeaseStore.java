package io.distlock.store;

import io.distlock.LockBackendException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

/**
 * A store that keeps one lease per key, for {@link StoreLock}. It counts every lease on its own clock (the database's
 * or the coordination service's), never on a client's wall clock, and it compares the owner token on every change.
 *
 * <p>Implementations are thread-safe. Every method may throw {@link LockBackendException} when the store cannot be
 * reached or answers with an error; {@link StoreLock} then treats the outcome of the call as unknown.
 */
public interface LeaseStore extends AutoCloseable {

    /**
     * Starts one acquisition of a key. Nothing is sent to the store yet; an acquisition that keeps state in the store
     * (a place in a queue) creates it on its first {@link Acquisition#tryTake()}.
     *
     * @param key the key, already validated by {@link StoreLock}
     * @param owner the owner token of the hold that this acquisition would create, unique per hold
     * @param lease how long the store keeps the key for this owner, counted on the store's clock from the grant
     * @return the acquisition, which the caller closes when it ends with or without the key
     */
    Acquisition begin(String key, String owner, Duration lease);

    /**
     * Starts one acquisition of a key, like {@link #begin(String, String, Duration)}, for a holder that others should
     * see by name: a store that can keeps {@code holder} with the hold it grants, and the time of the grant on its own
     * clock, and answers both in {@link #readLease(String)}. The default keeps no name.
     *
     * @param key the key, already validated by {@link StoreLock}
     * @param owner the owner token of the hold that this acquisition would create, unique per hold
     * @param holder the lock instance's name ({@link io.distlock.spi.InstanceNames}), not secret
     * @param lease how long the store keeps the key for this owner, counted on the store's clock from the grant
     * @return the acquisition, which the caller closes when it ends with or without the key
     */
    default Acquisition begin(String key, String owner, String holder, Duration lease) {
        return begin(key, owner, lease);
    }

    /**
     * Starts one acquisition of one of a key's permits, for {@link StoreLock}'s {@linkplain io.distlock.Semaphores
     * semaphores}: like {@link #begin(String, String, String, Duration)}, except that up to {@code permits} owners hold
     * the key at once. Its {@link Acquisition#tryTake()} grants a permit while fewer than {@code permits} grants of the
     * key are live on the store's clock, whatever count those were taken with; each grant has its own owner, lease and
     * fencing token, and the tokens of one key rise with every grant. A semaphore's key is apart from the lock of the
     * same name. Offered where {@link #offersPermits()} says so.
     *
     * @param key the key, already validated by {@link StoreLock}
     * @param permits how many owners may hold the key at once, from 1 to {@link io.distlock.Semaphores#MAX_PERMITS}
     * @param owner the owner token of the permit that this acquisition would grant, unique per hold
     * @param holder the lock instance's name, as for {@link #begin(String, String, String, Duration)}
     * @param lease how long the store keeps the permit for this owner, counted on the store's clock from the grant
     * @return the acquisition, which the caller closes when it ends with or without a permit
     * @throws UnsupportedOperationException if the store has no permits; by default
     */
    default Acquisition beginPermit(String key, int permits, String owner, String holder, Duration lease) {
        throw new UnsupportedOperationException(describe() + " has no semaphores");
    }

    /**
     * Whether the store hands out a key's permits ({@link #beginPermit}): then {@link StoreLock} offers {@link
     * io.distlock.Kind#SEMAPHORE}.
     *
     * @return false by default
     */
    default boolean offersPermits() {
        return false;
    }

    /**
     * Starts one acquisition of a key for reading, for {@link StoreLock}'s {@linkplain io.distlock.Kind#READ read
     * locks}: like {@link #begin(String, String, String, Duration)}, except that readers share the key. Its {@link
     * Acquisition#tryTake()} grants while no writer's grant of the key is live on the store's clock and no writer waits
     * for the key, so that waiting writers never starve; each read has its own owner, lease and fencing token, from the
     * counter of the key's writers. A store that offers readers refuses a writer ({@link #begin}) while any reader's
     * grant of the key is live, and lets a writer that waits for readers keep new readers out. Offered where {@link
     * #offersReaders()} says so.
     *
     * @param key the key, already validated by {@link StoreLock}
     * @param owner the owner token of the read that this acquisition would grant, unique per hold
     * @param holder the lock instance's name, as for {@link #begin(String, String, String, Duration)}
     * @param lease how long the store keeps the read for this owner, counted on the store's clock from the grant
     * @return the acquisition, which the caller closes when it ends with or without a read
     * @throws UnsupportedOperationException if the store has no readers; by default
     */
    default Acquisition beginRead(String key, String owner, String holder, Duration lease) {
        throw new UnsupportedOperationException(describe() + " has no read locks");
    }

    /**
     * Whether the store shares a key between readers ({@link #beginRead}): then {@link StoreLock} offers {@link
     * io.distlock.Kind#READ}.
     *
     * @return false by default
     */
    default boolean offersReaders() {
        return false;
    }

    /**
     * Starts one acquisition of a key through the key's queue, for {@link StoreLock}'s {@linkplain io.distlock.Kind#FAIR
     * fair lock}: like {@link #begin(String, String, String, Duration)}, and its grant holds the same key, except that
     * the acquisitions of every process that begin here are served in the order they arrived: its {@link
     * Acquisition#tryTake()} grants only while no earlier acquisition of the key's queue still waits, and a waiter
     * whose process died leaves the queue within a bound that the store documents. An acquisition through {@link
     * #begin} does not queue. Offered where {@link #offersFairQueue()} says so; a store whose every waiter is served in
     * arrival order ({@link #servesWaitersInArrivalOrder()}) needs no queue of its own.
     *
     * @param key the key, already validated by {@link StoreLock}
     * @param owner the owner token of the hold that this acquisition would create, unique per hold
     * @param holder the lock instance's name, as for {@link #begin(String, String, String, Duration)}
     * @param lease how long the store keeps the key for this owner, counted on the store's clock from the grant
     * @return the acquisition, which the caller closes when it ends with or without the key; closing it without the
     *     key takes it out of the queue
     * @throws UnsupportedOperationException if the store has no queue; by default
     */
    default Acquisition beginFair(String key, String owner, String holder, Duration lease) {
        throw new UnsupportedOperationException(describe() + " has no fair lock");
    }

    /**
     * Whether the store queues the acquisitions of {@link #beginFair}: then {@link StoreLock} offers a lock over them as
     * its {@link io.distlock.Kind#FAIR} lock.
     *
     * @return false by default
     */
    default boolean offersFairQueue() {
        return false;
    }

    /**
     * Starts one acquisition of a path in a named tree, for {@link StoreLock}'s {@linkplain io.distlock.Kind#PATH path
     * locks}: like {@link #begin(String, String, String, Duration)}, except that the hold it grants conflicts with every
     * live hold of the same tree on the path itself, on one of its ancestors or on one of its descendants, and with no
     * other. Its {@link Acquisition#tryTake()} grants while no such hold is live on the store's clock; each grant has
     * its own owner, lease and fencing token, and the tokens of one tree rise with every grant in it, so that any two
     * conflicting holds are ordered by their tokens. A tree's paths are apart from the keys of the other kinds. Waiters
     * need not queue. Offered where {@link #offersPaths()} says so.
     *
     * @param tree the tree's name, already validated by {@link StoreLock} and {@link #validatePath}
     * @param segments the path's segments, root first, already validated; empty for the whole tree
     * @param owner the owner token of the hold that this acquisition would create, unique per hold
     * @param holder the lock instance's name, as for {@link #begin(String, String, String, Duration)}
     * @param lease how long the store keeps the path for this owner, counted on the store's clock from the grant
     * @return the acquisition, which the caller closes when it ends with or without the path
     * @throws UnsupportedOperationException if the store has no path locks; by default
     */
    default Acquisition beginPath(String tree, List<String> segments, String owner, String holder, Duration lease) {
        throw new UnsupportedOperationException(describe() + " has no path locks");
    }

    /**
     * Whether the store locks the paths of trees ({@link #beginPath}): then {@link StoreLock} offers {@link
     * io.distlock.Kind#PATH}.
     *
     * @return false by default
     */
    default boolean offersPaths() {
        return false;
    }

    /**
     * Checks any limits the store adds to the path rules that every backend shares, such as a shorter length for a
     * tree's name and a path together.
     *
     * @param tree a valid tree name
     * @param segments a valid path's segments
     * @throws IllegalArgumentException naming what is wrong and what is allowed
     */
    default void validatePath(String tree, List<String> segments) {}

    /**
     * Checks any limits the store adds to {@link io.distlock.Lock}'s own key rules, such as a character set or a
     * shorter length.
     *
     * @param key a key that is non-null, not blank and at most {@link io.distlock.Lock#MAX_KEY_LENGTH} characters
     * @throws IllegalArgumentException naming what is wrong with the key and what is allowed
     */
    default void validateKey(String key) {}

    /**
     * Reads how long the key's current lease still runs on the store's clock, changing nothing: for the Actuator view.
     *
     * @param key a valid key
     * @return the remaining lease, or empty when no owner holds the key
     * @throws LockBackendException if the store could not be asked
     */
    Optional<Duration> remainingLease(String key);

    /**
     * Reads how the key stands, changing nothing: how long its lease still runs, and who took it when, as far as the
     * store keeps them. The default reads {@link #remainingLease(String)} and names no holder.
     *
     * @param key a valid key
     * @return how the key stands, or empty when no owner holds it
     * @throws LockBackendException if the store could not be asked
     */
    default Optional<LeaseReading> readLease(String key) {
        return remainingLease(key).map(remaining -> new LeaseReading(remaining, null, null));
    }

    /**
     * Frees the key for an operator if its current grant has this fencing token, and tells that grant's {@link
     * StoreLease#whenGone(java.util.function.Consumer)} callback {@link
     * io.distlock.LockLostException.Reason#RELEASED_BY_OPERATOR} where the store can ({@link
     * io.distlock.monitor.InspectableLock#releaseForOperator}). The default cannot.
     *
     * @param key a valid key
     * @param fencingToken the fencing token of the grant to free
     * @return true if that grant held the key and was freed
     * @throws UnsupportedOperationException if the store cannot; by default
     * @throws LockBackendException if the store could not be asked
     */
    default boolean releaseForOperator(String key, long fencingToken) {
        throw new UnsupportedOperationException(describe() + " cannot release a key for an operator");
    }

    /**
     * How long {@link StoreLock} waits for the store's answer to one {@link Acquisition#tryTake()}, or to the {@link
     * StoreLease#checkOwned()} of a nested acquisition, before it gives up with {@link LockBackendException}: the bound
     * of {@code acquire}, which has no wait of its own, of every attempt of a longer wait, and of a nested
     * acquisition's confirmation, also for a try without a wait. A waiting caller gives up at its deadline anyway,
     * whatever this says. The call given up on goes on without the caller; an attempt's acquisition is closed after
     * it.
     *
     * @return the call timeout; the default is 15 s
     */
    default Duration callTimeout() {
        return Duration.ofSeconds(15);
    }

    /**
     * Whether the store serves the waiters of every process in the order they arrived, as a queue in the store does:
     * then {@link StoreLock} offers itself as its {@link io.distlock.Kind#FAIR} lock. A store whose waiters poll does not.
     *
     * @return false by default
     */
    default boolean servesWaitersInArrivalOrder() {
        return false;
    }

    /**
     * Makes one round trip to the store that changes nothing, for health checks.
     *
     * @throws LockBackendException if the store could not be reached or answered with an error
     */
    void ping();

    /**
     * A short description of the store for messages and logs, such as {@code "jdbc:postgresql[table=distlock]"}.
     *
     * @return the description
     */
    String describe();

    /** Releases the store's own resources (connections, sessions, threads). Held keys run out with their leases. */
    @Override
    void close();

    /**
     * One attempt, possibly repeated, to take one key.
     *
     * <p>{@link StoreLock} calls it from one thread at a time, though not always the same one: {@code tryTake}, then
     * {@code awaitChance} while the key is held and the wait allows, then {@code tryTake} again, and finally {@code
     * close}. A waiting caller's {@code tryTake} and {@code close} run on the lock's worker threads, so that the caller
     * can give up on time while they go on; {@code close} then follows the last {@code tryTake} once it returned, and a
     * lease that it returned late is released first.
     */
    interface Acquisition extends AutoCloseable {

        /**
         * Tries once to take the key: it succeeds when the key is free, when its holder's lease ran out on the store's
         * clock, or, for a queueing store, when this acquisition's turn came.
         *
         * @return the granted lease, or null when another owner holds the key (or is ahead in the queue)
         * @throws LockBackendException if the store could not be asked; whether the key was taken is unknown, and the
         *     caller closes the acquisition, which must then give back a grant it made
         */
        @org.jspecify.annotations.Nullable
        StoreLease tryTake();

        /**
         * Waits until another {@link #tryTake()} might succeed: the store reported a change, the holder's lease may
         * have run out, a poll interval passed, or the deadline came. Returning early is allowed.
         *
         * @param deadlineNanos the {@link System#nanoTime()} at which the wait ends
         * @throws InterruptedException if the thread is interrupted while waiting
         */
        void awaitChance(long deadlineNanos) throws InterruptedException;

        /**
         * Ends the acquisition. If it ends without the key, whatever it left in the store (a place in a queue, a grant
         * whose answer was lost) is removed; a lease returned by {@link #tryTake()} stays held. Called exactly once.
         */
        @Override
        void close();
    }
}
