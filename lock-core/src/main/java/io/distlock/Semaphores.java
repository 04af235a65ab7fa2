package io.distlock;

/**
 * The semaphores of a {@link Lock}: what {@code lock.kind(Kind.SEMAPHORE)} hands out. A semaphore of {@code n} permits
 * is a {@link Lock} whose every key has {@code n} permits instead of one: up to {@code n} owners hold a key at once,
 * across every thread and process that uses the same store, and the next one waits until a permit comes back.
 *
 * <p>Each permit is a hold like any other of a {@link Lock}: its lease is counted by the store and renewed while it is
 * held if it asked for a {@linkplain Lease#renewed() renewed} lease; only its owner releases or extends it; a holder
 * whose permit ran out, or was taken away, learns of it as of any lost lock ({@link LockHandle#isLost()}, {@link
 * LockHandle#onLost}, {@link LockLostException} from {@code release} and {@code extend}); and it has a fencing token
 * that rises with every permit granted on the key. The permit of a holder that died comes back when its lease ends.
 * Waiters are woken when a permit comes back and do not poll, as a lock's waiters are. Within a scope that holds a
 * permit of a key, the same thread's acquisition of that key through the same semaphore re-enters the permit it holds
 * and takes no second one, as {@link Lock} promises for every hold.
 *
 * <p>A semaphore's keys are its own: the exclusive lock of the same name is another lock, and so is a semaphore of
 * another permit count. The permit count is the caller's, given with every acquisition: callers that disagree on it
 * for one key are served each by their own count. When the count of a key in use is lowered, the holds beyond the
 * new count keep their permits until they are released or their leases end, and no permit is granted while as many
 * holds as the new count, or more, are live; the count can be raised at any time and takes effect at once.
 */
@FunctionalInterface
public interface Semaphores {

    /** The most permits a semaphore's key may have. */
    int MAX_PERMITS = 1_000;

    /**
     * The semaphore of {@code permits} permits per key. Asking for it reaches no store.
     *
     * @param permits how many owners may hold one key at once, from 1 to {@link #MAX_PERMITS}
     * @return the semaphore, a {@link Lock} whose acquisitions each take one permit of their key
     * @throws IllegalArgumentException naming the count and the range allowed
     */
    Lock permits(int permits);
}
