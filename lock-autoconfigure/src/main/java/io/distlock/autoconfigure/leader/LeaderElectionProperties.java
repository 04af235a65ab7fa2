package io.distlock.autoconfigure.leader;

import io.distlock.Lease;
import java.time.Duration;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Configuration of the application's leader election, under {@code distlock.leader.*}. Invalid values fail start-up,
 * naming the property.
 */
@ConfigurationProperties("distlock.leader")
public class LeaderElectionProperties implements InitializingBean {

    /** Group this instance leads or waits to lead, one lock key (leader:<group>) per group; unset means no election. */
    private @Nullable String group;

    /** Fixed lease of each term; unset means renewed by the watchdog, so a term lasts until the lock is lost or closed. */
    private @Nullable Duration lease;

    public @Nullable String getGroup() {
        return group;
    }

    public void setGroup(@Nullable String group) {
        this.group = group;
    }

    public @Nullable Duration getLease() {
        return lease;
    }

    public void setLease(@Nullable Duration lease) {
        this.lease = lease;
    }

    /** The lease of a term, as the election takes it. */
    Lease termLease() {
        return lease == null ? Lease.renewed() : Lease.fixed(lease);
    }

    @Override
    public void afterPropertiesSet() {
        if (group != null && group.isBlank()) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.leader.group",
                    group,
                    "must not be blank; name the group, or leave it unset for no election");
        }
        if (lease != null && (lease.toMillis() < 1 || lease.compareTo(Lease.MAX_FIXED) > 0)) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.leader.lease",
                    lease,
                    "must be from 1 ms to " + Lease.MAX_FIXED.toHours() + " hours, or unset for a renewed lease");
        }
    }
}
