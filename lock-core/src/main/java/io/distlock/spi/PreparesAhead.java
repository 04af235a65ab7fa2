package io.distlock.spi;

import io.distlock.Lock;
import java.time.Duration;

/**
 * Implemented by a {@link Lock} that can make, before its first acquisition, what that acquisition would otherwise
 * wait for: connections to every server that serves keys, scripts or statements the server must know, and the
 * subscription that wakes waiters. Spring Boot's auto-configuration calls it while the application starts, before it
 * reports ready, so that the first caller's wait is spent waiting for its key. For lock implementations; applications
 * only call {@link Lock}'s methods, which prepare on first use without it.
 */
public interface PreparesAhead {

    /**
     * Prepares what the first acquisitions need. It may take and release keys of its own (never an application's),
     * and never holds one when it returns. A lock that was not prepared, or only in part, still works: its first
     * acquisitions prepare what is missing.
     *
     * @param timeout how long to wait for the store in all; an implementation says where one request of its own may
     *     take its client's timeout instead
     * @return true if everything was prepared within the timeout; false if the store could not be reached or answered
     *     too late, in which case the reason has been logged
     * @throws InterruptedException if the thread was interrupted while waiting; nothing is held then
     * @throws IllegalStateException if the lock is closed
     */
    boolean prepare(Duration timeout) throws InterruptedException;
}
