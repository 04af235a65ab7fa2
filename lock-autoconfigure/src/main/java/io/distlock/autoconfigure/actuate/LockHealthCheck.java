package io.distlock.autoconfigure.actuate;

import io.distlock.monitor.BackendState;
import io.distlock.monitor.InspectableLock;
import java.time.Duration;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What distlock's health contributor reports, on either line of Spring Boot, whose health types differ: up while the
 * lock can do its work, that is, its server answers and its renewal thread runs ({@link BackendState#isHealthy()});
 * down otherwise. A release subscription that is not up only makes waiters slower, so it shows in the details without
 * making the lock down.
 *
 * <p>Details: {@code reachable}; {@code roundTrip}, the probe's round trip as an ISO-8601 duration, when the server
 * answered; {@code error}, why it could not be reached, when it could not; {@code renewer}, {@code running} or {@code
 * stopped}; {@code subscription}, the {@linkplain BackendState.Subscription subscription's state}; {@code held} and
 * {@code waiting}, how many holds and waiting threads this instance has.
 *
 * @param up whether the lock can do its work
 * @param details what the contributor shows, in this order
 */
public record LockHealthCheck(boolean up, Map<String, Object> details) {

    /** Keeps the details in their order, unmodifiable. */
    public LockHealthCheck {
        details = Collections.unmodifiableMap(new LinkedHashMap<>(details));
    }

    /**
     * Checks the lock's store now, with one probe bounded like any of its calls.
     *
     * @param lock the lock
     * @return its health
     */
    public static LockHealthCheck of(InspectableLock lock) {
        BackendState state = lock.checkBackend();
        Map<String, Object> details = new LinkedHashMap<>();
        details.put("reachable", state.reachable());
        Duration roundTrip = state.roundTrip();
        if (roundTrip != null) {
            details.put("roundTrip", roundTrip.toString());
        }
        String error = state.error();
        if (error != null) {
            details.put("error", error);
        }
        details.put("renewer", state.renewerRunning() ? "running" : "stopped");
        details.put("subscription", state.subscription().name());
        details.put("held", lock.heldCount());
        details.put("waiting", lock.waitingCount());
        return new LockHealthCheck(state.isHealthy(), details);
    }
}
