package io.distlock.autoconfigure.boot3;

import io.distlock.autoconfigure.actuate.LockHealthCheck;
import io.distlock.monitor.InspectableLock;
import org.springframework.boot.actuate.health.AbstractHealthIndicator;
import org.springframework.boot.actuate.health.Health;

/**
 * The {@code distlock} health contributor on Spring Boot 3.5: up while the lock can do its work, down otherwise, with
 * the details that {@link LockHealthCheck} describes, as on Spring Boot 4.
 */
public class Boot3LockHealthIndicator extends AbstractHealthIndicator {

    private final InspectableLock lock;

    /**
     * A health contributor for this lock.
     *
     * @param lock the lock to check
     */
    public Boot3LockHealthIndicator(InspectableLock lock) {
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
