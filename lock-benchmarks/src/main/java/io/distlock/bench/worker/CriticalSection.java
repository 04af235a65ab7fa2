package io.distlock.bench.worker;

/** What a thread does while it holds the lock: as little as possible, but enough to catch a second holder. */
interface CriticalSection {

    /** For fresh keys, which nobody else takes: there is nothing to check. */
    CriticalSection NONE = new CriticalSection() {
        @Override
        public void run() {}

        @Override
        public long violations(long acquisitions) {
            return 0;
        }
    };

    /** Runs once per acquisition, while the lock is held. */
    void run();

    /** Runs once per read acquisition, while the lock is held shared; a section that knows no readers checks as for a writer. */
    default void runShared() {
        run();
    }

    /**
     * The most readers seen inside at once, across processes, after all threads stopped.
     *
     * @return the count, or 0 for a section that knows no readers
     */
    default long mostReadersInside() {
        return 0;
    }

    /**
     * Counts the evidence, after all threads stopped, that holders overlapped.
     *
     * @param acquisitions how many times {@link #run()} ran
     * @return the number of violations seen
     */
    long violations(long acquisitions);
}
