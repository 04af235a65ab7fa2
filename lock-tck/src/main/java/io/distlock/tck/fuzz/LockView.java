package io.distlock.tck.fuzz;

/**
 * How the checker reads the state of a lock key, just before each judgement: its holder and when the holder's lease
 * ends. The worker reads through the view, on connections of the view's own, and passes what it read to the witness,
 * which judges it by its own clock: a read whose lease, as read, has 2 ms or less left for the section's own holder is
 * stale, and the checker reads again once that lease has ended.
 */
public interface LockView {

    /**
     * Reads the lock key's holder and lease end.
     *
     * @param lockKey the lock key, as the lock under test names it ({@link LockUnderTest.LockKeys})
     * @param ownerToken the owner token of the section the read is for: a view whose key may hold several owners at
     *     once, such as readers, tells this owner's hold apart from the others'
     * @return the holder, or none, and its lease end
     * @throws Unreadable if the lock key could not be read
     */
    HolderRead read(String lockKey, String ownerToken);

    /**
     * Describes everything the store keeps for the lock key, such as every node of a queue with its state, for the
     * report of a run whose threads did not end: what blocks a queue shows there, whatever the threads' stacks say.
     * Never throws; a store that cannot be read is described as such.
     *
     * @param lockKey the lock key, as the lock under test names it
     * @return one line, empty when the view has nothing to add
     */
    default String describe(String lockKey) {
        return "";
    }

    /** What a view's reads met, counted for the run's report. */
    interface Counts {

        /** A read did not answer at first, as while a server fails over, and was repeated until it did. */
        void readWaited();

        /** One of several nodes did not answer a read, and counted as possibly holding the key for anyone. */
        void nodeUnanswered();
    }

    /**
     * The lock key could not be read from the store that holds the locks, even after waiting as long as a failover
     * takes: the section goes unchecked from there on. Not a failure of the checker, whose own records stay complete.
     */
    final class Unreadable extends RuntimeException {

        private static final long serialVersionUID = 1L;

        /**
         * The read of {@code lockKey} failed with {@code cause}.
         *
         * @param lockKey the lock key
         * @param cause the first failure of its reads
         */
        public Unreadable(String lockKey, Throwable cause) {
            super("the checker could not read lock key " + lockKey + ": " + cause.getMessage(), cause);
        }
    }
}
