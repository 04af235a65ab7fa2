package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.regex.Pattern;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.support.SQLExceptionSubclassTranslator;

/** Builds a {@link JdbcLeaseStore}; get one from {@link JdbcLeaseStore#builder(DataSource)}. Not thread-safe. */
public final class JdbcLeaseStoreBuilder {

    private static final Logger log = LoggerFactory.getLogger(JdbcLeaseStoreBuilder.class);

    /** A plain SQL identifier, optionally qualified by a schema: nothing that needs quoting or could inject SQL. */
    private static final Pattern TABLE_NAME =
            Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,62}(\\.[A-Za-z_][A-Za-z0-9_]{0,62})?");

    private static final String TRANSACTION_AWARE_PROXY =
            "org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy";

    private static final Duration LONGEST_POLL = Duration.ofMinutes(1);

    private final DataSource dataSource;
    private String table = JdbcLeaseStore.DEFAULT_TABLE;
    private Duration minPoll = Duration.ofMillis(10);
    private Duration maxPoll = Duration.ofMillis(100);
    private boolean createTableIfMissing;
    private Duration callTimeout = Duration.ofSeconds(15);
    private @Nullable Duration deleteRowsUnusedFor;

    JdbcLeaseStoreBuilder(DataSource dataSource) {
        if (dataSource == null) {
            throw new IllegalArgumentException("dataSource must not be null");
        }
        this.dataSource = dataSource;
    }

    /**
     * Sets the lock table's name; the default is {@value JdbcLeaseStore#DEFAULT_TABLE}.
     *
     * @param tableName a plain SQL identifier of letters, digits and underscores, not starting with a digit, at most 63
     *     characters, optionally qualified by a schema name of the same kind ({@code locks.distlock_locks})
     * @return this builder
     * @throws IllegalArgumentException if the name is null or not such an identifier
     */
    public JdbcLeaseStoreBuilder tableName(String tableName) {
        if (tableName == null || !TABLE_NAME.matcher(tableName).matches()) {
            throw new IllegalArgumentException("tableName '" + tableName + "' is not a plain SQL identifier: use"
                    + " letters, digits and underscores, not starting with a digit, at most 63 characters, optionally"
                    + " after a schema name and a dot");
        }
        this.table = tableName;
        return this;
    }

    /**
     * Sets how often a waiter polls the table: the first pause is at most {@code min}, each next one at most twice as
     * long up to {@code max}, and each is drawn at random from the upper half of its range. The defaults are 10 ms and
     * 100 ms, so a waiter in another process sees a release within about 100 ms.
     *
     * @param min the longest first pause, at least 1 ms
     * @param max the longest pause, at least {@code min} and at most one minute
     * @return this builder
     * @throws IllegalArgumentException if a bound is null or out of range
     */
    public JdbcLeaseStoreBuilder pollInterval(Duration min, Duration max) {
        if (min == null || max == null) {
            throw new IllegalArgumentException("poll interval bounds must not be null");
        }
        if (min.compareTo(Duration.ofMillis(1)) < 0 || max.compareTo(min) < 0 || max.compareTo(LONGEST_POLL) > 0) {
            throw new IllegalArgumentException(
                    "poll interval must have 1 ms <= min <= max <= 1 min, was min " + min + ", max " + max);
        }
        this.minPoll = min;
        this.maxPoll = max;
        return this;
    }

    /**
     * Sets how long an acquisition waits for the database's answer to one attempt, the pool's wait for a connection
     * included, before it gives up with {@link io.distlock.LockBackendException}: the bound of {@code acquire}, which
     * has no wait of its own, and of the read that confirms a nested acquisition. A caller with a shorter wait gives up
     * at the end of its wait instead. The statement given up on goes on, on a thread of the lock, and a key it took is
     * given back after it. The default is 15 s.
     *
     * <p>Every statement of the store (acquisitions, extensions, releases, reads) also carries this as its JDBC query
     * timeout, rounded up to whole seconds: one that the database keeps waiting, on a row lock of another session for
     * one, is cancelled by the driver then, and gives back its thread and pooled connection. A query timeout does not
     * cover a server that stopped answering altogether: set the driver's socket timeout (PostgreSQL's {@code
     * socketTimeout}, for one) for that.
     *
     * @param callTimeout at least 100 ms
     * @return this builder
     * @throws IllegalArgumentException if null or shorter than 100 ms
     */
    public JdbcLeaseStoreBuilder callTimeout(Duration callTimeout) {
        if (callTimeout == null || callTimeout.compareTo(Duration.ofMillis(100)) < 0) {
            throw new IllegalArgumentException("callTimeout must be at least 100 ms, but was " + callTimeout);
        }
        this.callTimeout = callTimeout;
        return this;
    }

    /**
     * Sets whether {@link #build()} creates the lock table from the shipped schema script when it does not exist. The
     * default is false: the table is then expected to be created by the application's migrations.
     *
     * @param create true to create a missing table
     * @return this builder
     */
    public JdbcLeaseStoreBuilder createTableIfMissing(boolean create) {
        this.createTableIfMissing = create;
        return this;
    }

    /**
     * Deletes the rows of keys unused for a time, and takes fencing tokens from the database's clock so that they keep
     * growing when a key comes back after its row was deleted. Off by default: a released key keeps its row, one per key
     * name, for ever, and its tokens count 1, 2, 3 and so on.
     *
     * <p>A row is unused when its key is free and its latest grant, release or lease end lies more than {@code unused}
     * in the past on the database's clock; the row of a key that is held is never deleted, however long it is held. The
     * store deletes such rows on a daemon thread of its own, every half of {@code unused} but at least once an hour, in
     * batches of 500 rows, so a row is gone at most one and a half times {@code unused} after its last use. Each batch
     * reads the table for expired and released rows: on a table of millions of keys, an index on {@code expires_at}
     * keeps that cheap. A failed batch is logged at WARN and tried again at the next run. {@link JdbcLeaseStore#close()}
     * stops the thread.
     *
     * <p>With the clean-up on, a grant's fencing token is the larger of the row's previous token plus one and the
     * database's time in microseconds since 1970 (about 1.8 × 10<sup>15</sup> in 2027), and a key whose row was deleted
     * starts again from that time. A key that comes back after a deletion therefore gets a larger token than any it had
     * before, as long as the database's clock has not been set back by more than {@code unused} meanwhile. Tokens of
     * existing rows jump to the clock at their next grant, and turning the clean-up off again lets them go on counting
     * from there, so they keep growing either way. Tokens need 64 bits: a 32-bit column that stores them in the
     * application's own tables no longer holds them.
     *
     * @param unused at least 1 s; null turns the clean-up off
     * @return this builder
     * @throws IllegalArgumentException if shorter than 1 s
     */
    public JdbcLeaseStoreBuilder deleteRowsUnusedFor(@Nullable Duration unused) {
        if (unused != null && unused.compareTo(Duration.ofSeconds(1)) < 0) {
            throw new IllegalArgumentException(
                    "deleteRowsUnusedFor must be at least 1 s, or null for no clean-up, but was " + unused);
        }
        this.deleteRowsUnusedFor = unused;
        return this;
    }

    /**
     * Connects once to detect the database and, if asked to, creates the table.
     *
     * @return the store
     * @throws IllegalArgumentException if the data source is a transaction-aware proxy, or its database is not
     *     PostgreSQL, MySQL, MariaDB or H2
     * @throws IllegalStateException if the database cannot be reached or the table cannot be created
     */
    public JdbcLeaseStore build() {
        refuseTransactionAwareProxy();
        String product = databaseProduct();
        Dialect dialect = Dialect.of(product)
                .orElseThrow(() -> new IllegalArgumentException(
                        "the data source's database is " + product + "; JdbcLeaseStore supports " + Dialect.SUPPORTED));
        Connections connections = new Connections(dataSource);
        LockSql sql = LockSql.of(dialect, table, true, deleteRowsUnusedFor != null);
        TableSetup setup = new TableSetup(connections, dialect, sql, table);
        String description = "jdbc:" + dialect.id() + "[table=" + table + "]";
        StoreErrors errors = new StoreErrors(description, dialect, table, product);
        try {
            if (createTableIfMissing) {
                setup.createIfMissing();
            }
            if (!setup.exists()) {
                log.warn("distlock: {}", errors.missingTable());
            } else if (!setup.hasHolderColumns()) {
                log.warn(
                        "distlock: the lock table '{}' has no locked_by and locked_at columns, so holds are stored"
                                + " without their holder's name; add them as {} describes",
                        table,
                        dialect.schemaResource());
                sql = LockSql.of(dialect, table, false, deleteRowsUnusedFor != null);
            }
        } catch (SQLException e) {
            throw new IllegalStateException(
                    "could not check or create the lock table '" + table + "': " + e,
                    errors.translate("check or create the lock table", e));
        }
        LockRows rows = new LockRows(connections, dialect, sql, errors, callTimeout);
        return new JdbcLeaseStore(
                dialect,
                description,
                rows,
                new PermitRows(rows, connections, errors, dialect, table, sql),
                new ReadRows(rows, connections, errors, dialect, table, sql),
                new FairRows(rows, connections, errors, dialect, table),
                new PathRows(rows, connections, errors, dialect, table, sql),
                errors,
                minPoll,
                maxPoll,
                callTimeout,
                deleteRowsUnusedFor);
    }

    private void refuseTransactionAwareProxy() {
        for (Class<?> type = dataSource.getClass(); type != null; type = type.getSuperclass()) {
            if (type.getName().equals(TRANSACTION_AWARE_PROXY)) {
                throw new IllegalArgumentException("the data source is a " + type.getSimpleName() + ", which hands out"
                        + " the connection of the caller's transaction, so a rollback would release locks; give"
                        + " JdbcLeaseStore the target data source behind it");
            }
        }
    }

    /** The database's product name, which also chooses the error codes of Spring's SQL error translation. */
    private String databaseProduct() {
        try (Connection connection = dataSource.getConnection()) {
            return connection.getMetaData().getDatabaseProductName();
        } catch (SQLException e) {
            // The product, and so its error codes, is unknown yet: the driver's exception class and SQLState decide.
            DataAccessException translated = new SQLExceptionSubclassTranslator().translate("connect", null, e);
            throw new IllegalStateException(
                    "could not connect to find out which database the lock table is in: " + e,
                    translated != null ? translated : e);
        }
    }
}
