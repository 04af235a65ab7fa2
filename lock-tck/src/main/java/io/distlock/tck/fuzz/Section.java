package io.distlock.tck.fuzz;

import io.distlock.LockHandle;
import java.util.concurrent.TimeUnit;

/** One critical section: the hold it runs under, what the checker saw, and what the holder learned about a loss. */
final class Section {

    private final String key;
    private final String lockKey;
    private final LockHandle handle;
    private final String id;
    private final boolean reader;
    private final long leaseFloorNanos;
    private Checker.Entry entry = Checker.Entry.CLAIMED;
    private Checker.State state = Checker.State.HELD;
    private boolean lossReported;
    private boolean seenLost;
    private boolean unreadable;

    /**
     * Starts the record of a section.
     *
     * @param calledNanos when the acquisition was called, by {@link System#nanoTime()}: before the store set the lease
     * @param reader whether the section holds a read lock, which other readers may hold at once
     */
    Section(
            String key,
            String lockKey,
            LockHandle handle,
            String worker,
            long number,
            long calledNanos,
            boolean reader) {
        this.key = key;
        this.lockKey = lockKey;
        this.handle = handle;
        this.reader = reader;
        this.id = worker + "#" + number + "/fence " + handle.fencingToken() + (reader ? "/reader" : "");
        long leaseNanos = LeaseProfile.initialLease(handle.lease()).toNanos();
        // The store's clock and this one may drift apart by up to 0.05% (NTP slew); a millisecond more for rounding,
        // and the witness counts a lease with 2 ms or less left as gone (see LockSight), so 2 ms more.
        this.leaseFloorNanos = calledNanos + leaseNanos - leaseNanos / 1000 - TimeUnit.MILLISECONDS.toNanos(3);
    }

    String key() {
        return key;
    }

    String lockKey() {
        return lockKey;
    }

    LockHandle handle() {
        return handle;
    }

    /** True if the section holds a read lock; otherwise it holds the key alone, as a writer or exclusive holder. */
    boolean reader() {
        return reader;
    }

    /** Names the section in the checker's records: worker, section number, fencing token, and whether it reads. */
    String id() {
        return id;
    }

    Checker.Entry entry() {
        return entry;
    }

    void entered(Checker.Entry entry) {
        this.entry = entry;
    }

    Checker.State state() {
        return state;
    }

    /** Keeps the worst state seen: a lock once lost stays lost, a violation stays a violation. */
    void checked(Checker.State seen) {
        if (seen.compareTo(state) > 0) {
            state = seen;
        }
    }

    /** True once the lock told its holder, by exception from a release or a nested acquisition, that it was lost. */
    boolean lossReported() {
        return lossReported;
    }

    void lossReported(boolean reported) {
        lossReported |= reported;
    }

    /** True if {@link LockHandle#isLost()} already said so when the section ended. */
    boolean seenLost() {
        return seenLost;
    }

    void seenLost(boolean lost) {
        seenLost = lost;
    }

    /** True once the checker could not read the section's lock key: the section is not judged from then on. */
    boolean unreadable() {
        return unreadable;
    }

    void unreadable(boolean unreadable) {
        this.unreadable |= unreadable;
    }

    /**
     * Tells whether the lease certainly has not run out yet: the store set it after the acquisition was called, and leases
     * only ever grow, so until the lease's length has passed since the call, the lock cannot have expired.
     */
    boolean leaseCertainlyAlive() {
        return System.nanoTime() - leaseFloorNanos < 0;
    }

    /** The lock was not the holder's any more when the section ended, or already when it began. */
    boolean lostInside() {
        return entry == Checker.Entry.NOT_OWNED || state == Checker.State.LOST;
    }
}
