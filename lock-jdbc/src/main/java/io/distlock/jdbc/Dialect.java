package io.distlock.jdbc;

import java.util.Locale;
import java.util.Optional;

/**
 * What differs between the supported databases: how to read the database's clock, how long a key may be, and whether
 * one statement can insert a key or take over an expired row and return its fencing token.
 *
 * <p>Every clock is read in microseconds: rounding an expiry to milliseconds could end a lease in the database up to
 * half a millisecond before the holder's own timer, which starts before the statement is sent.
 */
enum Dialect {
    /**
     * {@code clock_timestamp()} is the time when the expression is evaluated; {@code now()} would be the start of the
     * transaction, which may be much older on a connection that a pool reuses inside a long transaction.
     */
    POSTGRESQL(
            "postgresql",
            "clock_timestamp()",
            "clock_timestamp() + ? * interval '1 millisecond'",
            "CAST(EXTRACT(EPOCH FROM (expires_at - clock_timestamp())) * 1000 AS BIGINT)",
            "CAST(EXTRACT(EPOCH FROM %s) * 1000 AS BIGINT)",
            "CAST(EXTRACT(EPOCH FROM clock_timestamp()) * 1000000 AS BIGINT)",
            "DELETE FROM %1$s WHERE lock_key IN (SELECT lock_key FROM %1$s WHERE %2$s LIMIT %3$d) AND %2$s",
            1024,
            true),

    /**
     * {@code UTC_TIMESTAMP(6)} belongs to the {@code NOW()} family: the time the statement started, the same on a
     * replica under statement-based replication (which re-evaluates {@code SYSDATE()}), and in UTC whatever the
     * session's time zone, so a daylight-saving change never moves a lease. A statement that started before it waited
     * for a row lock counts the lease from its start, which is still after the client started its own lease timer.
     * The key column is 768 characters: InnoDB indexes at most 3072 bytes, 4 per utf8mb4 character.
     */
    MYSQL(
            "mysql",
            "UTC_TIMESTAMP(6)",
            "TIMESTAMPADD(MICROSECOND, ? * 1000, UTC_TIMESTAMP(6))",
            "TIMESTAMPDIFF(MICROSECOND, UTC_TIMESTAMP(6), expires_at) DIV 1000",
            "TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', %s) DIV 1000",
            "TIMESTAMPDIFF(MICROSECOND, '1970-01-01 00:00:00', UTC_TIMESTAMP(6))",
            "DELETE FROM %1$s WHERE %2$s LIMIT %3$d",
            768,
            false),

    /** H2's {@code CURRENT_TIMESTAMP} is the start of the current transaction: each of our statements is one. */
    H2(
            "h2",
            "CURRENT_TIMESTAMP(6)",
            "DATEADD(MILLISECOND, ?, CURRENT_TIMESTAMP(6))",
            "DATEDIFF(MILLISECOND, CURRENT_TIMESTAMP(6), expires_at)",
            "CAST(EXTRACT(EPOCH FROM %s) * 1000 AS BIGINT)",
            "CAST(EXTRACT(EPOCH FROM CURRENT_TIMESTAMP(6)) * 1000000 AS BIGINT)",
            "DELETE FROM %1$s WHERE %2$s FETCH FIRST %3$d ROWS ONLY",
            1024,
            false);

    /** The products {@link #of(String)} recognises, for the message that refuses any other. */
    static final String SUPPORTED = "PostgreSQL, MySQL, MariaDB, H2";

    private final String id;
    private final String now;
    private final String nowPlusMillis;
    private final String millisLeft;
    private final String epochMillis;
    private final String epochMicrosNow;
    private final String deleteBatch;
    private final int maxKeyLength;
    private final boolean upsertReturning;

    Dialect(
            String id,
            String now,
            String nowPlusMillis,
            String millisLeft,
            String epochMillis,
            String epochMicrosNow,
            String deleteBatch,
            int maxKeyLength,
            boolean upsertReturning) {
        this.id = id;
        this.now = now;
        this.nowPlusMillis = nowPlusMillis;
        this.millisLeft = millisLeft;
        this.epochMillis = epochMillis;
        this.epochMicrosNow = epochMicrosNow;
        this.deleteBatch = deleteBatch;
        this.maxKeyLength = maxKeyLength;
        this.upsertReturning = upsertReturning;
    }

    /** The dialect of a {@code DatabaseMetaData.getDatabaseProductName()}, if supported. */
    static Optional<Dialect> of(String productName) {
        String product = productName.toLowerCase(Locale.ROOT);
        if (product.contains("postgresql")) {
            return Optional.of(POSTGRESQL);
        }
        if (product.contains("mysql") || product.contains("mariadb")) {
            return Optional.of(MYSQL);
        }
        if (product.equals("h2")) {
            return Optional.of(H2);
        }
        return Optional.empty();
    }

    /** Short name for descriptions, such as {@code postgresql}. */
    String id() {
        return id;
    }

    /** The database's current time, as an SQL expression. */
    String now() {
        return now;
    }

    /** The database's current time plus a number of milliseconds bound as the one parameter. */
    String nowPlusMillis() {
        return nowPlusMillis;
    }

    /** The milliseconds from the database's current time to a row's {@code expires_at}. */
    String millisLeft() {
        return millisLeft;
    }

    /** The milliseconds from 1970-01-01 UTC to a time column written with {@link #now()}. */
    String epochMillis(String column) {
        return epochMillis.formatted(column);
    }

    /** The microseconds from 1970-01-01 UTC to the database's current time, as an SQL expression. */
    String epochMicrosNow() {
        return epochMicrosNow;
    }

    /**
     * A statement that deletes at most {@code limit} rows of a table that match a condition. PostgreSQL has no limit
     * on {@code DELETE}, so it picks the rows in a subquery and tests the condition again on each row it deletes: a row
     * taken meanwhile no longer matches.
     */
    String deleteAtMost(String table, String condition, int limit) {
        return deleteBatch.formatted(table, condition, limit);
    }

    /** The longest key the dialect's key column holds, in characters. */
    int maxKeyLength() {
        return maxKeyLength;
    }

    /** True if one {@code INSERT ... ON CONFLICT ... DO UPDATE ... RETURNING} takes a key. */
    boolean upsertReturning() {
        return upsertReturning;
    }

    /** The class-path resource of this database's schema, in the lock-jdbc jar. */
    String schemaResource() {
        return "io/distlock/jdbc/schema-" + id + ".sql";
    }
}
