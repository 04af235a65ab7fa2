package io.distlock.jdbc;

import java.sql.SQLException;
import java.time.Duration;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the rows of keys unused for a set time, on a daemon thread of its own: every half of that time, but at least
 * once an hour, so that a row is gone at most one and a half times that time after its last use. See {@link
 * JdbcLeaseStoreBuilder#deleteRowsUnusedFor(Duration)}.
 */
final class UnusedRowCleanup implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(UnusedRowCleanup.class);

    private static final long LONGEST_PAUSE_MILLIS = Duration.ofHours(1).toMillis();

    private final LockRows rows;
    private final long unusedMillis;
    private final long pauseMillis;
    private final String description;
    private final ScheduledExecutorService thread;

    UnusedRowCleanup(LockRows rows, Duration unused, String description) {
        this.rows = rows;
        this.unusedMillis = unused.toMillis();
        this.pauseMillis = Math.min(unusedMillis / 2, LONGEST_PAUSE_MILLIS);
        this.description = description;
        this.thread = Executors.newSingleThreadScheduledExecutor(work -> {
            Thread cleaner = new Thread(work, "distlock-jdbc-cleanup");
            cleaner.setDaemon(true);
            return cleaner;
        });
        thread.scheduleWithFixedDelay(this::sweep, pauseMillis, pauseMillis, TimeUnit.MILLISECONDS);
    }

    /** A failure is logged and the next sweep tries again: an exception would end the schedule. */
    private void sweep() {
        try {
            int deleted = rows.deleteUnused(unusedMillis);
            if (deleted > 0) {
                log.debug(
                        "distlock: deleted {} rows of keys unused for {} ms from {}",
                        deleted,
                        unusedMillis,
                        description);
            }
        } catch (SQLException | RuntimeException e) {
            log.warn(
                    "distlock: could not delete the rows of keys unused for {} ms from {}; trying again in {} ms: {}",
                    unusedMillis,
                    description,
                    pauseMillis,
                    e.toString());
        }
    }

    /** Stops the sweeps; one under way is interrupted. */
    @Override
    public void close() {
        thread.shutdownNow();
    }
}
