package io.distlock.autoconfigure.actuate;

import io.distlock.monitor.InspectableLock;
import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;

/**
 * The {@code distlock} health contributor on Spring Boot 4: up while the lock can do its work, down otherwise, with
 * the details that {@link LockHealthCheck} describes. On Spring Boot 3.5 the module {@code lock-autoconfigure-boot3},
 * which every starter brings, contributes the same.
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
        LockHealthCheck health = LockHealthCheck.of(lock);
        if (health.up()) {
            builder.up();
        } else {
            builder.down();
        }
        builder.withDetails(health.details());
    }
}
