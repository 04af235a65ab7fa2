package io.distlock.boot35.support;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.springframework.boot.SpringBootVersion;

/**
 * The race an application's test runs twice on a {@link RacyCounter}: once through its locked method, which must keep
 * every increment, and once through the plain one, which must lose some, so that the test could fail.
 */
public final class LostUpdateRace {

    private static final int CALLERS = 8;
    private static final int CALLS_EACH = 20;
    private static final long CALLER_TIMEOUT_SECONDS = 100;

    private LostUpdateRace() {}

    /**
     * Runs {@value #CALLERS} concurrent callers of {@code locked}, then of the counter's plain {@link
     * RacyCounter#increment()}, {@value #CALLS_EACH} calls each, and asserts that the locked calls kept every increment
     * and the plain ones lost at least one.
     *
     * @param application the application's name in the printed line
     * @param counter the counter both kinds of calls increment
     * @param locked an increment under the application's lock
     * @throws Exception if a caller failed, or did not finish within {@value #CALLER_TIMEOUT_SECONDS} seconds
     */
    public static void assertLockKeepsEveryIncrement(String application, RacyCounter counter, Runnable locked)
            throws Exception {
        int kept = incrementsKept(counter, locked);
        int keptWithoutLock = incrementsKept(counter, counter::increment);

        System.out.printf(
                "Spring Boot %s, %s: %d callers x %d read-pause-write increments: with @DistributedLock %d, without %d%n",
                SpringBootVersion.getVersion(), application, CALLERS, CALLS_EACH, kept, keptWithoutLock);
        assertThat(kept).as("increments kept with the lock").isEqualTo(CALLERS * CALLS_EACH);
        assertThat(keptWithoutLock).as("increments kept without the lock").isLessThan(CALLERS * CALLS_EACH);
    }

    private static int incrementsKept(RacyCounter counter, Runnable increment) throws Exception {
        ExecutorService callers = Executors.newFixedThreadPool(CALLERS);
        try {
            int before = counter.count();
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> done = new ArrayList<>();
            for (int c = 0; c < CALLERS; c++) {
                done.add(callers.submit(() -> {
                    start.await();
                    for (int i = 0; i < CALLS_EACH; i++) {
                        increment.run();
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> caller : done) {
                caller.get(CALLER_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            }
            return counter.count() - before;
        } finally {
            callers.shutdownNow();
        }
    }
}
