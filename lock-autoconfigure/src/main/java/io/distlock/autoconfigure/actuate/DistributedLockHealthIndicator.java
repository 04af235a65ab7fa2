package io.distlock.autoconfigure.actuate;

import io.distlock.monitor.BackendState;
import io.distlock.monitor.InspectableLock;
import java.time.Duration;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The {@code distlock} health contributor (Spring Boot 4): up while the lock can do its work, that is, its server
 * answers and its renewal thread runs ({@link BackendState#isHealthy()}); down otherwise. A release subscription that
 * is not up only makes waiters slower, so it shows in the details without making the lock down.
 *
 * <p>Details: {@code reachable}; {@code roundTrip}, the probe's round trip as an ISO-8601 duration, when the server
 * answered; {@code error}, why it could not be reached, when it could not; {@code renewer}, {@code running} or {@code
 * stopped}; {@code subscription}, the {@linkplain BackendState.Subscription subscription's state}; {@code held} and
 * {@code waiting}, how many holds and waiting threads this instance has.
 */
public class DistributedLockHealthIndicator extends AbstractHealthIndicator {

    private final InspectableLock lock;

    /**
     * A health contributor for this lock.
     *
     * @param lock the lock to check
     */
    public DistributedLockHealthIndicator(InspectableLock lock) {
        super("distlock health check failed");
        this.lock = lock;
    }

    @Override
    protected void doHealthCheck(Health.Builder builder) {
        BackendState state = lock.checkBackend();
        if (state.isHealthy()) {
            builder.up();
        } else {
            builder.down();
        }
        builder.withDetail("reachable", state.reachable());
        Duration roundTrip = state.roundTrip();
        if (roundTrip != null) {
            builder.withDetail("roundTrip", roundTrip.toString());
        }
        String error = state.error();
        if (error != null) {
            builder.withDetail("error", error);
        }
        builder.withDetail("renewer", state.renewerRunning() ? "running" : "stopped")
                .withDetail("subscription", state.subscription().name())
                .withDetail("held", lock.heldCount())
                .withDetail("waiting", lock.waitingCount());
    }
}
