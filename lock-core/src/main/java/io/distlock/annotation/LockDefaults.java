package io.distlock.annotation;

import io.distlock.Lease;
import io.distlock.OnLockLost;
import java.time.Duration;
import org.jspecify.annotations.Nullable;

/**
 * What an {@link io.distlock.DistributedLock @DistributedLock} uses for the attributes it leaves unset.
 *
 * @param waitTime the wait when neither {@code waitSeconds} nor {@code waitTime} is set; zero tries once
 * @param lease the fixed lease when neither {@code leaseSeconds} nor {@code lease} is set, or null for an
 *     auto-renewed lease
 * @param onLost the reaction to a lost lock when {@code onLost} is unset; THROW or LOG
 */
public record LockDefaults(Duration waitTime, @Nullable Duration lease, OnLockLost onLost) {

    /**
     * Checks the defaults.
     *
     * @param waitTime the default wait
     * @param lease the default fixed lease, or null for auto-renewed
     * @param onLost THROW or LOG
     * @throws IllegalArgumentException if the wait is null or negative, the lease is out of range, or onLost is
     *     DEFAULT
     */
    public LockDefaults {
        if (waitTime == null || waitTime.isNegative()) {
            throw new IllegalArgumentException("default wait must be zero or positive, but was " + waitTime);
        }
        if (lease != null) {
            Lease.fixed(lease);
        }
        if (onLost == null || onLost == OnLockLost.DEFAULT) {
            throw new IllegalArgumentException("default onLost must be THROW or LOG, but was " + onLost);
        }
    }

    /**
     * The defaults without any configuration: wait 5 seconds, auto-renewed lease, throw when the lock was lost.
     *
     * @return the built-in defaults
     */
    public static LockDefaults standard() {
        return new LockDefaults(Duration.ofSeconds(5), null, OnLockLost.THROW);
    }

    Lease defaultLease() {
        return lease == null ? Lease.renewed() : Lease.fixed(lease);
    }
}
