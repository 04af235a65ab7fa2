package io.distlock;

/** What distlock does when work that ran under a lock finishes and the lock turns out to have been lost meanwhile. */
public enum OnLockLost {

    /** Use the configured default ({@code distlock.on-lost}, itself {@link #THROW} unless set). */
    DEFAULT,

    /**
     * Throw a {@link LockLostException} after the work returned; if the work threw, its exception is thrown with the
     * loss attached as suppressed.
     */
    THROW,

    /** Log the loss as a warning and return the work's result. */
    LOG
}
