package io.distlock.tck.fuzz;

/** Something the parent does to the servers while a fuzz run's workers hammer, such as failing a master over. */
@FunctionalInterface
public interface Disruption {

    /** Leaves the servers alone. */
    Disruption NONE = run -> {};

    /**
     * Runs on the parent's thread once the workers have started; the run's workers are awaited when it returns.
     *
     * @param run the run in progress, to time the disruption and watch what the checker records
     * @throws InterruptedException if the parent is interrupted, which ends the run
     */
    void during(RunInProgress run) throws InterruptedException;
}
