package io.distlock.autoconfigure.jdbc;

import java.time.Duration;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.InitializingBean;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * The lock on a table of the application's database, for {@code distlock.backend=jdbc}; needs lock-jdbc. Invalid
 * values fail application start-up, naming the property.
 */
@ConfigurationProperties("distlock.jdbc")
public class JdbcLockProperties implements InitializingBean {

    private static final Pattern TABLE_NAME =
            Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}(\\.[A-Za-z_][A-Za-z0-9_]{0,62})?");

    /** Table that holds the locks: a plain SQL identifier, optionally after a schema name and a dot. */
    private String tableName = "distlock_locks";

    /** Whether to create the lock table at start-up when it is missing, from the schema lock-jdbc ships. */
    private boolean createTable = false;

    /** Longest first pause of a waiting acquisition between two tries; later pauses double up to poll-max. */
    private Duration pollMin = Duration.ofMillis(10);

    /** Longest pause of a waiting acquisition between two tries: how late, at most, a waiter sees a release. */
    private Duration pollMax = Duration.ofMillis(100);

    /**
     * How long an acquisition waits for the database's answer to one attempt, the pool's wait for a connection
     * included: the bound of an acquisition without a wait; one with a shorter wait gives up at its end. Every statement
     * also carries it, rounded up to whole seconds, as its query timeout.
     */
    private Duration callTimeout = Duration.ofSeconds(15);

    /**
     * Delete the rows of keys unused for this long, with fencing tokens taken from the database's clock so that they keep
     * growing when a key comes back; unset keeps every key's row for ever, with tokens counted from 1.
     */
    private @Nullable Duration deleteRowsUnusedFor;

    public String getTableName() {
        return tableName;
    }

    public void setTableName(String tableName) {
        this.tableName = tableName;
    }

    public boolean isCreateTable() {
        return createTable;
    }

    public void setCreateTable(boolean createTable) {
        this.createTable = createTable;
    }

    public Duration getPollMin() {
        return pollMin;
    }

    public void setPollMin(Duration pollMin) {
        this.pollMin = pollMin;
    }

    public Duration getPollMax() {
        return pollMax;
    }

    public void setPollMax(Duration pollMax) {
        this.pollMax = pollMax;
    }

    public Duration getCallTimeout() {
        return callTimeout;
    }

    public void setCallTimeout(Duration callTimeout) {
        this.callTimeout = callTimeout;
    }

    public @Nullable Duration getDeleteRowsUnusedFor() {
        return deleteRowsUnusedFor;
    }

    public void setDeleteRowsUnusedFor(@Nullable Duration deleteRowsUnusedFor) {
        this.deleteRowsUnusedFor = deleteRowsUnusedFor;
    }

    /**
     * Rejects values that cannot work, naming the property, so the application fails at start-up.
     *
     * @throws InvalidConfigurationPropertyValueException for the first invalid value
     */
    @Override
    public void afterPropertiesSet() {
        if (tableName == null || !TABLE_NAME.matcher(tableName).matches()) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.jdbc.table-name",
                    tableName,
                    "must be a plain SQL identifier (letters, digits and underscores, not starting with a digit, at"
                            + " most 63 characters), optionally after a schema name and a dot");
        }
        if (pollMin == null || pollMin.compareTo(Duration.ofMillis(1)) < 0) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.jdbc.poll-min", pollMin, "must be at least 1ms");
        }
        if (pollMax == null || pollMax.compareTo(pollMin) < 0 || pollMax.compareTo(Duration.ofMinutes(1)) > 0) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.jdbc.poll-max", pollMax, "must be from distlock.jdbc.poll-min (" + pollMin + ") to 1m");
        }
        if (callTimeout == null || callTimeout.compareTo(Duration.ofMillis(100)) < 0) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.jdbc.call-timeout", callTimeout, "must be at least 100ms");
        }
        if (deleteRowsUnusedFor != null && deleteRowsUnusedFor.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new InvalidConfigurationPropertyValueException(
                    "distlock.jdbc.delete-rows-unused-for",
                    deleteRowsUnusedFor,
                    "must be at least 1s, or unset to keep every key's row");
        }
    }
}
