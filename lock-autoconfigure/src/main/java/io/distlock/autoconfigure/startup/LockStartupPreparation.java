package io.distlock.autoconfigure.startup;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.autoconfigure.internal.WarmUpCalls;
import io.distlock.spi.PreparesAhead;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.context.SmartLifecycle;

/**
 * Readies the lock while the application starts: the lock's own preparation where it {@linkplain PreparesAhead
 * offers one}, then the warm-up calls. It runs in the phase after distlock's beans start and before the web server
 * takes requests, so the application reports ready only once it is done, or once {@code distlock.startup.timeout} has
 * passed. It never fails start-up: a store that cannot be reached is logged, and the first call connects.
 */
final class LockStartupPreparation implements SmartLifecycle {

    /** After distlock's own beans (whose phase is {@code Integer.MAX_VALUE / 2}), long before the web server's. */
    static final int PHASE = Integer.MAX_VALUE / 2 + 1;

    private static final Logger log = LoggerFactory.getLogger(LockStartupPreparation.class);

    /** The wait and lease of a warm-up call made without the annotation. */
    private static final Duration WARM_UP_WAIT = Duration.ofSeconds(1);

    private static final Lease WARM_UP_LEASE = Lease.fixed(Duration.ofSeconds(30));

    /**
     * A warm-up call after the first slower than this ends the warm-up: the store is degraded (a Redlock node that does
     * not answer, a database under load), and more such calls would only hold up start-up until the timeout. The first
     * may take longer, since on a store without a preparation of its own it opens the connections.
     */
    static final Duration SLOW_CALL = Duration.ofMillis(500);

    private final Lock lock;
    private final @Nullable WarmUpCalls calls;
    private final int warmUpCalls;
    private final Duration timeout;
    private volatile boolean running;

    /**
     * @param calls the locked method to warm up through, or null where the annotation is switched off, in which case
     *     the warm-up calls the lock itself
     */
    LockStartupPreparation(Lock lock, @Nullable WarmUpCalls calls, LockStartupProperties properties) {
        this.lock = lock;
        this.calls = calls;
        this.warmUpCalls = properties.getWarmUpCalls();
        this.timeout = properties.getTimeout();
    }

    @Override
    public void start() {
        if (running) {
            return;
        }
        running = true;
        long started = System.nanoTime();
        long deadline = started + timeout.toNanos();
        try {
            if (lock instanceof PreparesAhead ahead && !ahead.prepare(timeout)) {
                return;
            }
            int made = warmUp(deadline);
            if (made < warmUpCalls && System.nanoTime() - deadline >= 0) {
                log.warn(
                        "distlock made {} of its {} warm-up calls within distlock.startup.timeout={}; the first"
                                + " application calls may be slower than later ones",
                        made,
                        warmUpCalls,
                        timeout);
            } else {
                log.debug(
                        "distlock prepared {} in {} ms with {} warm-up calls",
                        lock,
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started),
                        made);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            log.warn("distlock's start-up preparation was interrupted; the first call connects");
        } catch (RuntimeException e) {
            log.warn("distlock could not prepare {} at start-up; the first call connects: {}", lock, e.toString());
        }
    }

    private int warmUp(long deadline) throws InterruptedException {
        int made = 0;
        while (made < warmUpCalls && System.nanoTime() - deadline < 0) {
            long started = System.nanoTime();
            if (calls != null) {
                calls.call(WarmUpCalls.NAME);
            } else {
                lock.tryAcquire(WarmUpCalls.KEY, WARM_UP_LEASE, WARM_UP_WAIT).ifPresent(LockHandle::release);
            }
            made++;
            long took = System.nanoTime() - started;
            if (made > 1 && took > SLOW_CALL.toNanos()) {
                log.warn(
                        "distlock's warm-up call {} took {} ms; it stops warming up, since the store answers slowly",
                        made,
                        TimeUnit.NANOSECONDS.toMillis(took));
                return made;
            }
        }
        return made;
    }

    @Override
    public void stop() {
        running = false;
    }

    @Override
    public boolean isRunning() {
        return running;
    }

    @Override
    public int getPhase() {
        return PHASE;
    }
}
