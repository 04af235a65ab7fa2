package io.distlock.jdbc;

import io.distlock.Semaphores;
import io.distlock.spi.InstanceNames;
import io.distlock.store.LeaseReading;
import io.distlock.store.LeaseStore;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;

/**
 * A {@link LeaseStore} on one table of a relational database: PostgreSQL, MySQL, MariaDB or H2. Each key is a row
 * with its owner token, its lease expiry and a fencing counter, and the holder's instance name and time of the grant
 * ({@code locked_by}, {@code locked_at}); a released key keeps its row, so its fencing tokens only grow. A table made
 * before the two holder columns existed works without them, naming no holder. Rows of keys unused for a set time are
 * deleted only if the store was built with {@link JdbcLeaseStoreBuilder#deleteRowsUnusedFor(Duration)}, which also
 * takes fencing tokens from the database's clock so that they still grow across a deletion.
 *
 * <h2>The table</h2>
 * The store does not create its table unless built with {@link JdbcLeaseStoreBuilder#createTableIfMissing(boolean)}. The schema for
 * each database ships in this jar as {@code io/distlock/jdbc/schema-postgresql.sql}, {@code schema-mysql.sql} and
 * {@code schema-h2.sql}; run it with a migration tool, changing the table name if you chose another. While the table is
 * missing, every operation throws {@link io.distlock.LockBackendException} saying so.
 *
 * <h2>Time</h2>
 * Leases are counted on the database's clock only ({@code clock_timestamp()} on PostgreSQL, {@code UTC_TIMESTAMP(6)}
 * on MySQL and MariaDB, {@code CURRENT_TIMESTAMP} on H2); the clients' clocks are never compared with it.
 *
 * <h2>Transactions</h2>
 * Every operation takes its own connection from the data source and runs with auto-commit on (or in one short
 * transaction of its own), then gives the connection back with its former settings. A lock is therefore taken, extended
 * and released whatever the caller's transaction does: a rollback of the caller's transaction neither releases a lock
 * taken inside it nor brings back one released inside it. For that, the data source must hand out plain connections:
 * not a transaction-aware proxy that returns the connection of the caller's transaction (such as Spring's {@code
 * TransactionAwareDataSourceProxy}, which {@link JdbcLeaseStoreBuilder#build()} refuses), and not one that enlists its connections in
 * a JTA transaction. Each operation borrows a connection only for its statement, but a pool needs one free connection
 * for it, also while the caller's transaction holds another.
 *
 * <h2>Failures</h2>
 * A statement that fails throws {@link io.distlock.LockBackendException}, naming the key and the operation, whose
 * cause is the database's error as Spring's SQL error translation classifies it ({@link
 * org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator}, by the database's error codes, then the
 * driver's exception classes and SQLStates): a {@link org.springframework.dao.DataAccessException} subclass such as
 * {@code DataAccessResourceFailureException} for a database that cannot be reached, {@code QueryTimeoutException} or
 * {@code BadSqlGrammarException}, with the driver's {@link java.sql.SQLException} as its own cause.
 *
 * <h2>Waiting</h2>
 * A waiter polls the table, with pauses that start at the poll interval's minimum, double up to its maximum, and are
 * jittered. A release through the same store instance wakes that instance's waiters for the key at once. A waiter
 * stops at the end of its wait even while a statement or the pool's wait for a connection is under way: {@code
 * StoreLock} runs the statements of waiting acquisitions on its own threads, and gives back a key that such a
 * statement took after the caller stopped waiting.
 */
public final class JdbcLeaseStore implements LeaseStore {

    /** The table name used unless {@link JdbcLeaseStoreBuilder#tableName(String)} sets another. */
    public static final String DEFAULT_TABLE = "distlock_locks";

    private final Dialect dialect;
    private final String description;
    private final LockRows rows;
    private final Takings takings;
    private final ColumnLimits limits;
    private final StoreErrors errors;
    private final KeySignals signals = new KeySignals();
    private final Polling polling;
    private final Duration callTimeout;
    private final @Nullable UnusedRowCleanup cleanup;

    JdbcLeaseStore(
            Dialect dialect,
            String description,
            LockRows rows,
            PermitRows permits,
            ReadRows reads,
            FairRows queues,
            PathRows paths,
            StoreErrors errors,
            Duration minPoll,
            Duration maxPoll,
            Duration callTimeout,
            @Nullable Duration deleteRowsUnusedFor) {
        this.dialect = dialect;
        this.description = description;
        this.rows = rows;
        this.errors = errors;
        this.limits = new ColumnLimits(dialect.maxKeyLength(), description);
        this.polling = new Polling(minPoll, maxPoll);
        this.callTimeout = callTimeout;
        this.takings = new Takings(
                rows,
                reads,
                queues,
                permits,
                paths,
                polling.waitMark().toMillis(),
                polling.ticketStay().toMillis());
        this.cleanup =
                deleteRowsUnusedFor == null ? null : new UnusedRowCleanup(rows, deleteRowsUnusedFor, description);
    }

    /**
     * Starts building a store on a data source.
     *
     * @param dataSource hands out plain connections, not ones bound to the caller's transaction
     * @return the builder
     * @throws IllegalArgumentException if the data source is null
     */
    public static JdbcLeaseStoreBuilder builder(DataSource dataSource) {
        return new JdbcLeaseStoreBuilder(dataSource);
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalArgumentException if the owner token starts with {@code ~} or is longer than the table's 64
     *     characters
     */
    @Override
    public Acquisition begin(String key, String owner, Duration lease) {
        return begin(key, owner, InstanceNames.ofThisProcess(null), lease);
    }

    /**
     * {@inheritDoc}
     *
     * <p>The holder's name and the database's time of the grant go into the row's {@code locked_by} and {@code
     * locked_at}; a table made before those columns existed keeps no name.
     *
     * @throws IllegalArgumentException if the owner token starts with {@code ~} or is longer than the table's 64
     *     characters, or the holder's name longer than its 100
     */
    @Override
    public Acquisition begin(String key, String owner, String holder, Duration lease) {
        limits.checkOwner(owner, holder);
        long leaseMillis = JdbcAcquisition.millisRoundedUp(lease);
        return acquisition(key, key, owner, takings.exclusive(key, owner, holder, leaseMillis));
    }

    /**
     * {@inheritDoc}
     *
     * <p>A read is a slot row of the lock table, and the key's own row says that readers hold it: see {@link
     * ReadRows}. A take, a release and an extension are each one transaction that locks the key's row; a take reads as
     * many rows as the most readers the key had at once since it was last free. A writer that waits marks a row of
     * the key on each refused poll, which keeps new readers out for three of the longest pauses between polls, and at
     * least half a second, after its last.
     *
     * @throws IllegalArgumentException as {@link #begin(String, String, String, Duration)} does, or if the key leaves
     *     too little of the table's key length for the name of a read's row
     */
    @Override
    public Acquisition beginRead(String key, String owner, String holder, Duration lease) {
        limits.checkOwner(owner, holder);
        limits.checkRowNameFits(key, ReadRows.rowNameOverhead(), "a key taken for reading");
        long leaseMillis = JdbcAcquisition.millisRoundedUp(lease);
        return acquisition(key, key, owner, takings.read(key, owner, holder, leaseMillis));
    }

    /**
     * {@inheritDoc}
     *
     * <p>A key's queue is rows of the lock table, a ticket per waiter beside a queue row: see {@link FairRows}. An
     * acquisition joins with one transaction on its first try, and each try is one transaction that locks the queue
     * row, keeps this JVM's tickets for the key alive, reads the tickets ahead of its own, and takes the key with the
     * lock's statements once none of them is live. Only the first of this JVM's waiters for a key polls; it keeps the
     * others' tickets alive. A waiter whose process died leaves the queue when its ticket runs out, ten of the
     * longest pauses between polls and at least 2 s after that process's last poll. Acquisitions through {@link
     * #begin} do not queue, and take a free key ahead of the queue.
     *
     * @throws IllegalArgumentException as {@link #begin(String, String, String, Duration)} does, or if the key leaves
     *     too little of the table's key length for the names of its queue's rows
     */
    @Override
    public Acquisition beginFair(String key, String owner, String holder, Duration lease) {
        limits.checkOwner(owner, holder);
        limits.checkRowNameFits(key, FairRows.rowNameOverhead(), "a key taken through the fair lock");
        long leaseMillis = JdbcAcquisition.millisRoundedUp(lease);
        return acquisition(key, FairRows.queue(key), owner, takings.fair(key, owner, holder, leaseMillis));
    }

    private JdbcAcquisition acquisition(String key, String line, String owner, JdbcAcquisition.Taking taking) {
        return new JdbcAcquisition(rows, errors, signals, polling.backoff(), key, line, owner, taking);
    }

    /** {@inheritDoc} A key's queue is rows of the lock table. */
    @Override
    public boolean offersFairQueue() {
        return true;
    }

    /** {@inheritDoc} A key's readers are rows of the lock table. */
    @Override
    public boolean offersReaders() {
        return true;
    }

    /**
     * {@inheritDoc}
     *
     * <p>A semaphore key's permits are slot rows of the lock table beside a first row that one transaction per grant
     * locks: see {@link PermitRows}. A take reads as many rows as the highest count the key was taken with.
     *
     * @throws IllegalArgumentException as {@link #begin(String, String, String, Duration)} does, or if the key leaves
     *     too little of the table's key length for a slot's name
     */
    @Override
    public Acquisition beginPermit(String key, int permits, String owner, String holder, Duration lease) {
        limits.checkOwner(owner, holder);
        limits.checkRowNameFits(key, PermitRows.slot("", Semaphores.MAX_PERMITS).length(), "a semaphore's key");
        long leaseMillis = JdbcAcquisition.millisRoundedUp(lease);
        return acquisition(key, PermitRows.line(key), owner, takings.permit(key, permits, owner, holder, leaseMillis));
    }

    /** {@inheritDoc} A semaphore key's permits are rows of the lock table. */
    @Override
    public boolean offersPermits() {
        return true;
    }

    /** How this store's waiters poll, and how long their marks outlive their last poll. */
    Polling polling() {
        return polling;
    }

    /** The longest key of a lock in this database: its table's key column, or what its index takes. */
    int maxKeyLength() {
        return dialect.maxKeyLength();
    }

    /**
     * {@inheritDoc}
     *
     * <p>A tree is rows of the lock table ({@code PathRows}): every take, release and extension of one of its paths
     * locks the tree's row first, so the tree's changes follow each other. A take is one transaction of 8 or 9 statements,
     * whatever the path's depth, and one more for each ancestor whose number of slots changes: it reads the rows of the
     * path and of each ancestor in one query and their slots in another, and writes its owner into a slot of each
     * ancestor in one statement. A release is one transaction of 2 statements, an extension of 3. A waiter of
     * this store for the same path is woken by a release at once; other waiters poll as for keys. A hold whose holder
     * died keeps its path and every ancestor until its lease ends, and no longer.
     */
    @Override
    public Acquisition beginPath(String tree, List<String> segments, String owner, String holder, Duration lease) {
        limits.checkOwner(owner, holder);
        validatePath(tree, segments);
        long leaseMillis = JdbcAcquisition.millisRoundedUp(lease);
        return acquisition(
                String.join("/", segments),
                PathRows.holderRow(tree, segments),
                owner,
                takings.path(tree, segments, owner, holder, leaseMillis));
    }

    /** {@inheritDoc} A tree's paths are rows of the lock table. */
    @Override
    public boolean offersPaths() {
        return true;
    }

    /**
     * {@inheritDoc}
     *
     * <p>A tree's name must not contain the control character U+0001, and the name and the path together are at most
     * 14 characters shorter than a key.
     */
    @Override
    public void validatePath(String tree, List<String> segments) {
        limits.checkTreeAndPath(tree, String.join("/", segments));
    }

    /**
     * {@inheritDoc}
     *
     * <p>On MySQL and MariaDB a key is at most 768 characters, the most that InnoDB indexes in utf8mb4. A key must not
     * start with the control character U+0001, which starts the rows the store adds beside keys: semaphores'
     * permits ({@link PermitRows}), readers ({@link ReadRows}) and fair queues ({@link FairRows}).
     */
    @Override
    public void validateKey(String key) {
        limits.checkKey(key);
    }

    /**
     * {@inheritDoc}
     *
     * @return the builder's {@link JdbcLeaseStoreBuilder#callTimeout(Duration)}, 15 s by default
     */
    @Override
    public Duration callTimeout() {
        return callTimeout;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Reads the key's row; the time left is counted on the database's clock.
     */
    @Override
    public Optional<Duration> remainingLease(String key) {
        return readLease(key).map(LeaseReading::remaining);
    }

    /**
     * {@inheritDoc}
     *
     * <p>Reads the key's row; the time left is counted on the database's clock, and the holder is the row's {@code
     * locked_by}.
     */
    @Override
    public Optional<LeaseReading> readLease(String key) {
        try {
            return Optional.ofNullable(rows.read(key));
        } catch (SQLException e) {
            throw errors.of("read the lease of", key, e);
        }
    }

    /**
     * {@inheritDoc}
     *
     * <p>One UPDATE that frees the row only while its fencing token is this one and its lease runs on the database's
     * clock, so a grant made meanwhile, which has a larger token, keeps the key. It leaves a mark in the row instead of
     * the owner token: the freed holder finds the key gone at its next renewal, extension or release, and the mark tells
     * it that an operator freed it, until the key is taken again. Waiters of this store look again at once; those of
     * other processes at their next poll. A key that readers hold names no owner in its row and is not freed.
     */
    @Override
    public boolean releaseForOperator(String key, long fencingToken) {
        boolean released;
        try {
            released = rows.releaseForOperator(key, fencingToken);
        } catch (SQLException e) {
            throw errors.of("release for an operator", key, e);
        }
        if (released) {
            signals.released(key);
        }
        return released;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Reads the lock table without reading a row, so a missing table fails the check too. The exception's key is
     * empty.
     */
    @Override
    public void ping() {
        try {
            rows.probe();
        } catch (SQLException e) {
            throw errors.ofTable("read the lock table", e);
        }
    }

    /**
     * {@inheritDoc}
     *
     * @return {@code jdbc:<database>[table=<table>]}, such as {@code jdbc:postgresql[table=distlock_locks]}
     */
    @Override
    public String describe() {
        return description;
    }

    /**
     * Deletes, now, the rows of keys that nobody held for {@code unused}, as the clean-up of {@link
     * JdbcLeaseStoreBuilder#deleteRowsUnusedFor(Duration)} does on its schedule.
     *
     * @return how many rows were deleted
     */
    int deleteRowsUnusedFor(Duration unused) {
        try {
            return rows.deleteUnused(unused.toMillis());
        } catch (SQLException e) {
            throw errors.ofTable("delete the rows of unused keys from the lock table", e);
        }
    }

    /**
     * Stops the clean-up of unused rows, if the store has one; the store keeps no connection of its own, and the data
     * source is the caller's.
     */
    @Override
    public void close() {
        if (cleanup != null) {
            cleanup.close();
        }
    }

    @Override
    public String toString() {
        return description;
    }
}
