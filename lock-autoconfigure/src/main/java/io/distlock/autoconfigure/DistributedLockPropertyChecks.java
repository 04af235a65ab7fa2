package io.distlock.autoconfigure;

import io.distlock.Lease;
import io.distlock.OnLockLost;
import io.distlock.spi.InstanceNames;
import java.time.Duration;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The checks of {@code distlock.*}'s values: each names the property and what it allows, so that the application fails
 * at start-up.
 */
final class DistributedLockPropertyChecks {

    private DistributedLockPropertyChecks() {}

    /**
     * Rejects the first value that cannot work.
     *
     * @throws InvalidConfigurationPropertyValueException naming the property and what is allowed
     */
    static void check(DistributedLockProperties properties) {
        checkTopLevel(properties);
        checkWatchdog(properties.getWatchdog());
        checkShutdown(properties.getShutdown());
        checkMetrics(properties.getMetrics());
    }

    private static void checkTopLevel(DistributedLockProperties properties) {
        String keyPrefix = properties.getKeyPrefix();
        if (keyPrefix == null || keyPrefix.isBlank() || keyPrefix.contains("{") || keyPrefix.contains("}")) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.key-prefix", keyPrefix, "must not be blank and must not contain '{' or '}'");
        }
        String instanceName = properties.getInstanceName();
        if (instanceName != null) {
            try {
                InstanceNames.check(instanceName);
            } catch (IllegalArgumentException e) {
                throw new InvalidConfigurationPropertyValueException(
                        "distlock.instance-name",
                        instanceName,
                        "must be " + InstanceNames.ALLOWED + "; unset means spring.application.name@host");
            }
        }
        Duration defaultWait = properties.getDefaultWait();
        if (defaultWait == null || defaultWait.isNegative()) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.default-wait", defaultWait, "must be zero (try once) or positive");
        }
        Duration defaultLease = properties.getDefaultLease();
        if (defaultLease != null && !DistributedLockProperties.isValidLease(defaultLease, Duration.ofMillis(1))) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.default-lease",
                    defaultLease,
                    "must be from 1ms to " + Lease.MAX_FIXED.toDays() + "d, or unset for an auto-renewed lease");
        }
        OnLockLost onLost = properties.getOnLost();
        if (onLost == null || onLost == OnLockLost.DEFAULT) {
            throw new InvalidConfigurationPropertyValueException("distlock.on-lost", onLost, "must be THROW or LOG");
        }
    }

    private static void checkWatchdog(DistributedLockProperties.Watchdog watchdog) {
        Duration lease = watchdog.getLease();
        if (lease == null || !DistributedLockProperties.isValidLease(lease, Duration.ofMillis(100))) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.watchdog.lease", lease, "must be from 100ms to " + Lease.MAX_FIXED.toDays() + "d");
        }
        Duration renewInterval = watchdog.getRenewInterval();
        if (renewInterval != null
                && (renewInterval.isZero() || renewInterval.isNegative() || renewInterval.compareTo(lease) >= 0)) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.watchdog.renew-interval",
                    renewInterval,
                    "must be positive and shorter than distlock.watchdog.lease (" + lease + ")");
        }
        Duration maxHold = watchdog.getMaxHold();
        if (maxHold != null && maxHold.compareTo(lease) <= 0) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.watchdog.max-hold",
                    maxHold,
                    "must be longer than distlock.watchdog.lease (" + lease + "), or unset for no maximum");
        }
    }

    private static void checkShutdown(DistributedLockProperties.Shutdown shutdown) {
        Duration gracePeriod = shutdown.getGracePeriod();
        if (gracePeriod == null || gracePeriod.isNegative()) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.shutdown.grace-period", gracePeriod, "must be zero (do not wait) or positive");
        }
    }

    private static void checkMetrics(DistributedLockProperties.Metrics metrics) {
        if (metrics.getMaxGroups() < 1) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.metrics.max-groups", metrics.getMaxGroups(), "must be at least 1");
        }
        for (String prefix : metrics.getKeyGroupPrefixes()) {
            if (prefix == null || prefix.isBlank()) {
                throw new InvalidConfigurationPropertyValueException(
                        "distlock.metrics.key-group-prefixes",
                        metrics.getKeyGroupPrefixes(),
                        "must list non-blank key prefixes, such as jobs:");
            }
        }
    }
}
