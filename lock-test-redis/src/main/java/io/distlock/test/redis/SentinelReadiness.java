package io.distlock.test.redis;

import java.time.Duration;

/**
 * Waits for a freshly started Sentinel group to be ready: replicas synced, every Sentinel knowing the others. Each
 * wait is a bound, not a start-up time: generous, since a loaded machine takes far longer than an idle one, and checks
 * that throw while a server is still starting count as "not yet".
 */
final class SentinelReadiness {

    /** Sentinels find each other through hello messages sent every 2 s; a loaded machine may take many rounds. */
    private static final Duration READY_TIMEOUT = Duration.ofSeconds(90);

    private SentinelReadiness() {}

    /** Waits until {@code condition} holds, failing after {@link #READY_TIMEOUT} with {@code what} it waited for. */
    static void await(String what, Condition condition) {
        long deadline = System.nanoTime() + READY_TIMEOUT.toNanos();
        while (!condition.holds()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("Gave up waiting for " + what + " after " + READY_TIMEOUT);
            }
            PortProbe.sleepPollInterval();
        }
    }

    /** A readiness check; it may throw while a server is still starting, which counts as "not yet". */
    @FunctionalInterface
    interface Condition {
        boolean check();

        default boolean holds() {
            try {
                return check();
            } catch (RuntimeException notYet) {
                return false;
            }
        }
    }
}
