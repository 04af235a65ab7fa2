package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.LockBackendException;
import io.distlock.LockLostException.Reason;
import io.distlock.store.LeaseReading;
import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLease;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.datasource.TransactionAwareDataSourceProxy;

/**
 * The store's own promises on a real database: owner tokens are compared, fencing tokens only grow, leases are counted
 * on the database's clock, a missing table is explained, and a caller's transaction never takes part in a lock.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
abstract class LeaseStoreChecks {

    private static final Duration LONG = Duration.ofSeconds(30);

    private JdbcLeaseStore store;
    String key;

    /** The database under test; the same for every test of the class. */
    abstract DataSource dataSource();

    @BeforeEach
    void newStore() {
        store = JdbcLeaseStore.builder(dataSource()).createTableIfMissing(true).build();
        key = "store:" + UUID.randomUUID();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    /**
     * A statement that the database keeps waiting, here on the row lock of another session's open transaction, is
     * cancelled at the call timeout, so that it does not keep a worker thread and a pooled connection after its caller
     * gave up.
     */
    @Test
    void aStatementTheDatabaseKeepsWaitingIsCancelledAtTheCallTimeout() throws Exception {
        JdbcLeaseStore quick = JdbcLeaseStore.builder(dataSource())
                .callTimeout(Duration.ofSeconds(1))
                .build();
        try (Connection blocker = dataSource().getConnection()) {
            assertThat(take(quick, key, "owner-a", LONG).release()).isTrue();
            blocker.setAutoCommit(false);
            try (PreparedStatement lockRow =
                    blocker.prepareStatement("SELECT lock_key FROM distlock_locks WHERE lock_key = ? FOR UPDATE")) {
                lockRow.setString(1, key);
                lockRow.executeQuery().close();
            }

            long start = System.nanoTime();
            assertThatThrownBy(() -> quick.begin(key, "owner-b", LONG).tryTake())
                    .isInstanceOf(LockBackendException.class);
            Duration waited = Duration.ofNanos(System.nanoTime() - start);

            assertThat(waited).isLessThan(Duration.ofSeconds(8));
            blocker.rollback();
        } finally {
            quick.close();
        }
        assertThat(take(store, key, "owner-c", LONG)).isNotNull();
    }

    @Test
    void freeKeyIsTakenAndHeldKeyIsRefused() {
        StoreLease held = take(store, key, "owner-a", LONG);

        assertThat(held.fencingToken()).isEqualTo(1);
        assertThat(tryTake(store, key, "owner-b", LONG)).isNull();
        assertThat(held.release()).isTrue();
        assertThat(tryTake(store, key, "owner-b", LONG)).isNotNull();
    }

    @Test
    void staleOwnerCannotExtendOrReleaseAfterAnotherTookTheExpiredKey() {
        StoreLease stale = take(store, key, "owner-stale", Duration.ofMillis(150));
        StoreLease current = await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> tryTake(store, key, "owner-current", LONG), lease -> lease != null);

        assertThat(stale.extend(LONG)).isFalse();
        assertThat(stale.release()).isFalse();
        assertThat(current.fencingToken()).isGreaterThan(stale.fencingToken());
        assertThat(tryTake(store, key, "owner-third", LONG))
                .as("still the current owner's")
                .isNull();
        assertThat(current.extend(LONG)).isTrue();
        assertThat(current.release()).isTrue();
        assertThat(current.release()).as("released once only").isFalse();
    }

    @Test
    void fencingTokensGrowAcrossReleaseAndTakeOver() {
        StoreLease first = take(store, key, "owner-1", LONG);
        first.release();
        StoreLease second = take(store, key, "owner-2", Duration.ofMillis(100));
        StoreLease third = await().atMost(Duration.ofSeconds(5))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> tryTake(store, key, "owner-3", LONG), lease -> lease != null);
        third.release();
        StoreLease fourth = take(newStore(dataSource()), key, "owner-4", LONG);

        assertThat(first.fencingToken()).isLessThan(second.fencingToken());
        assertThat(second.fencingToken()).isLessThan(third.fencingToken());
        assertThat(third.fencingToken()).isLessThan(fourth.fencingToken());
    }

    @Test
    void theOwnerLearnsWhetherTheKeyIsStillItsOwnOnTheDatabasesClock() throws SQLException {
        StoreLease held = take(store, key, "owner-a", LONG);
        String runOutKey = key + ":run-out";
        StoreLease runOut = take(store, runOutKey, "owner-b", LONG);
        setExpiry(runOutKey, -1_000);

        assertThat(held.checkOwned()).as("while its lease runs").isEmpty();
        assertThat(runOut.checkOwned())
                .as("its row still names it, but expired a second ago on the database's clock")
                .contains(Reason.KEY_GONE);
        assertThat(held.release()).isTrue();
        assertThat(held.checkOwned()).as("after its release").contains(Reason.KEY_GONE);
    }

    @Test
    void leaseIsCountedOnTheDatabasesClock() throws SQLException {
        String expired = key + ":expired";
        String live = key + ":live";
        writeRow(expired, "owner-gone", -1_000, 7);
        writeRow(live, "owner-live", 60_000, 7);

        StoreLease takenOver = tryTake(store, expired, "owner-next", LONG);
        assertThat(takenOver).as("expired a second ago on the database's clock").isNotNull();
        assertThat(takenOver.fencingToken()).isEqualTo(8);
        assertThat(tryTake(store, live, "owner-next", LONG))
                .as("a minute left on the database's clock")
                .isNull();
        assertThat(expiresInMillis(expired)).isBetween(25_000L, 30_000L);
    }

    @Test
    void extendSetsTheExpiryFromNowOnTheDatabasesClock() throws SQLException {
        StoreLease held = take(store, key, "owner-a", Duration.ofSeconds(2));

        assertThat(held.extend(Duration.ofSeconds(40))).isTrue();

        assertThat(expiresInMillis(key)).isBetween(35_000L, 40_000L);
    }

    @Test
    void waiterOfTheSameStoreIsWokenByARelease() throws Exception {
        JdbcLeaseStore slowPolling = JdbcLeaseStore.builder(dataSource())
                .pollInterval(Duration.ofSeconds(5), Duration.ofSeconds(5))
                .build();
        StoreLease held = take(slowPolling, key, "owner-a", LONG);
        LeaseStore.Acquisition waiting = slowPolling.begin(key, "owner-b", LONG);
        assertThat(waiting.tryTake()).isNull();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        CompletableFuture<Long> woken = CompletableFuture.supplyAsync(() -> {
            try {
                waiting.awaitChance(deadline);
                return System.nanoTime();
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        Thread.sleep(100);
        assertThat(woken).isNotDone();

        long released = System.nanoTime();
        held.release();

        assertThat(Duration.ofNanos(woken.get(10, TimeUnit.SECONDS) - released)).isLessThan(Duration.ofSeconds(1));
        assertThat(waiting.tryTake()).isNotNull();
        waiting.close();
    }

    /**
     * The row names the holder and when the database granted the key; the bound around this machine's clock (the
     * database runs on it) is wide enough for any delay and narrow enough to catch a time zone taken for UTC.
     */
    @Test
    void aHoldNamesItsHolderAndWhenTheDatabaseGrantedIt() {
        Instant before = Instant.now().minus(Duration.ofMinutes(1));
        StoreLease held = taken(store.begin(key, "owner-a", "orders@host-1", LONG));
        Instant after = Instant.now().plus(Duration.ofMinutes(1));

        LeaseReading reading = store.readLease(key).orElseThrow();
        assertThat(reading.holder()).isEqualTo("orders@host-1");
        assertThat(reading.since()).isBetween(before, after);
        assertThat(reading.remaining()).isPositive().isLessThanOrEqualTo(LONG);

        held.release();
        assertThat(store.readLease(key)).isEmpty();
        taken(store.begin(key, "owner-b", "orders@host-2", LONG));
        assertThat(store.readLease(key).orElseThrow().holder()).isEqualTo("orders@host-2");
    }

    /** A table made before the holder's columns existed keeps working; its holds name nobody. */
    @Test
    void aTableWithoutTheHolderColumnsKeepsWorkingWithoutNames() throws SQLException {
        String table = "unnamed_" + UUID.randomUUID().toString().replace("-", "");
        JdbcLeaseStore.builder(dataSource())
                .tableName(table)
                .createTableIfMissing(true)
                .build()
                .close();
        try (Connection connection = dataSource().getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("ALTER TABLE " + table + " DROP COLUMN locked_by");
            statement.execute("ALTER TABLE " + table + " DROP COLUMN locked_at");
        }
        JdbcLeaseStore unnamed =
                JdbcLeaseStore.builder(dataSource()).tableName(table).build();

        StoreLease held = taken(unnamed.begin(key, "owner-a", "orders@host-1", LONG));
        LeaseReading reading = unnamed.readLease(key).orElseThrow();
        assertThat(reading.holder()).isNull();
        assertThat(reading.since()).isNull();
        assertThat(tryTake(unnamed, key, "owner-b", LONG)).isNull();
        assertThat(held.release()).isTrue();
        assertThat(tryTake(unnamed, key, "owner-b", LONG)).isNotNull();
    }

    @Test
    void missingTableIsExplained() {
        JdbcLeaseStore withoutTable =
                JdbcLeaseStore.builder(dataSource()).tableName("no_such_locks").build();

        assertThatThrownBy(() -> withoutTable.begin(key, "owner-a", LONG).tryTake())
                .isInstanceOf(LockBackendException.class)
                .hasMessageContaining("'no_such_locks' does not exist")
                .hasMessageContaining(
                        Dialect.of(databaseProduct()).orElseThrow().schemaResource())
                .hasMessageContaining("createTableIfMissing(true)")
                .hasMessageContaining(key)
                .as("the database's error, as Spring's SQL error translation classifies it")
                .cause()
                .isInstanceOf(BadSqlGrammarException.class);
    }

    @Test
    void createTableIfMissingCreatesANamedTableOnce() {
        String table = "created_" + UUID.randomUUID().toString().replace("-", "");

        JdbcLeaseStore created = JdbcLeaseStore.builder(dataSource())
                .tableName(table)
                .createTableIfMissing(true)
                .build();
        JdbcLeaseStore again = JdbcLeaseStore.builder(dataSource())
                .tableName(table)
                .createTableIfMissing(true)
                .build();

        assertThat(created.describe()).endsWith("[table=" + table + "]");
        assertThat(take(created, key, "owner-a", LONG).fencingToken()).isEqualTo(1);
        assertThat(tryTake(again, key, "owner-b", LONG)).isNull();
    }

    @Test
    void tableNamesThatAreNotPlainIdentifiersAreRejected() {
        for (String bad :
                new String[] {"", "1locks", "locks; DROP TABLE x", "a-b", "\"quoted\"", "a.b.c", "x".repeat(64)}) {
            assertThatIllegalArgumentException()
                    .as(bad)
                    .isThrownBy(() -> JdbcLeaseStore.builder(dataSource()).tableName(bad))
                    .withMessageContaining("not a plain SQL identifier");
        }
        assertThat(JdbcLeaseStore.builder(dataSource()).tableName("public.my_locks_2"))
                .isNotNull();
    }

    @Test
    void aKeyStartingWithTheMarkOfSemaphoreRowsIsRefusedAndASemaphoresKeyLeavesRoomForItsSlots() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> store.validateKey(PermitRows.MARK + "x"))
                .withMessageContaining("must not start with the control character U+0001");
        String longest = "k".repeat(store.maxKeyLength() - 6);
        store.validateKey(longest + "kkkkkk");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> store.beginPermit(longest + "k", 2, "owner", "holder", LONG))
                .withMessageContaining("a semaphore's key in")
                .withMessageContaining("at most " + longest.length() + " characters");
        store.beginPermit(longest, 2, "owner", "holder", LONG).close();
        String longestRead = "k".repeat(store.maxKeyLength() - ReadRows.rowNameOverhead());
        assertThatIllegalArgumentException()
                .isThrownBy(() -> store.beginRead(longestRead + "k", "owner", "holder", LONG))
                .withMessageContaining("a key taken for reading in")
                .withMessageContaining("at most " + longestRead.length() + " characters");
        store.beginRead(longestRead, "owner", "holder", LONG).close();
    }

    /**
     * A writer that waits for readers marks the key on every refused poll, and a process that dies while it waits
     * never clears its mark: the mark still runs out on the database's clock, so new readers are kept out only for
     * the store's wait mark.
     */
    @Test
    void aWriterThatDiedWhileWaitingKeepsNewReadersOutOnlyUntilItsMarkRunsOut() throws Exception {
        StoreLease reading = taken(store.beginRead(key, "reader-1", "holder", LONG));
        JdbcLeaseStore otherProcess = newStore(dataSource());
        LeaseStore.Acquisition dyingWriter = otherProcess.begin(key, "writer", "holder", LONG);
        assertThat(dyingWriter.tryTake()).as("refused while a reader holds").isNull();
        dyingWriter.awaitChance(System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(1));
        assertThat(dyingWriter.tryTake())
                .as("refused again, now marked as waiting")
                .isNull();
        long marked = System.nanoTime();

        try (LeaseStore.Acquisition lateReader = store.beginRead(key, "reader-2", "holder", LONG)) {
            assertThat(lateReader.tryTake())
                    .as("kept out by the waiting writer")
                    .isNull();
        }
        StoreLease late = await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> tryRead(store, key, "reader-3"), lease -> lease != null);

        assertThat(Duration.ofNanos(System.nanoTime() - marked))
                .as("let in once the mark of %s ran out", store.polling().waitMark())
                .isGreaterThanOrEqualTo(store.polling().waitMark().minusMillis(100));
        assertThat(late.fencingToken()).isGreaterThan(reading.fencingToken());
        assertThat(reading.checkOwned()).isEmpty();
    }

    /**
     * A read whose lease runs out unreleased, after a longer read came and went, keeps writers out only until its own
     * lease ends, not until the longer one would have.
     */
    @Test
    void aReadThatRanOutUnreleasedKeepsWritersOutOnlyUntilItsOwnLeaseEnds() {
        StoreLease forgotten = taken(store.beginRead(key, "reader-short", "holder", Duration.ofMillis(300)));
        StoreLease longer = taken(store.beginRead(key, "reader-long", "holder", LONG));
        assertThat(longer.release()).isTrue();

        StoreLease writing = await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> tryTake(store, key, "writer", LONG), lease -> lease != null);

        assertThat(writing.fencingToken()).isGreaterThan(longer.fencingToken());
        assertThat(forgotten.checkOwned()).isPresent();
    }

    /** Readers share the key's row: the last one to leave frees it at once, whatever lease the others had. */
    @Test
    void theLastReaderToLeaveFreesTheKeyForAWriterAtOnce() {
        StoreLease first = taken(store.beginRead(key, "reader-1", "holder", LONG));
        StoreLease second = taken(store.beginRead(key, "reader-2", "holder", LONG.multipliedBy(2)));
        assertThat(tryTake(store, key, "writer", LONG))
                .as("refused while readers hold")
                .isNull();

        assertThat(second.release()).isTrue();
        assertThat(tryTake(store, key, "writer", LONG))
                .as("refused while one reader holds")
                .isNull();
        assertThat(first.extend(LONG)).isTrue();
        assertThat(first.release()).isTrue();

        StoreLease writing = take(store, key, "writer", LONG);
        assertThat(writing.fencingToken()).isGreaterThan(second.fencingToken());
        assertThat(first.release()).as("released once only").isFalse();
        assertThat(tryRead(store, key, "reader-3"))
                .as("refused while the writer holds")
                .isNull();
    }

    @Test
    void transactionAwareProxyIsRefused() {
        TransactionAwareDataSourceProxy proxy = new TransactionAwareDataSourceProxy(dataSource());

        assertThatIllegalArgumentException()
                .isThrownBy(() -> JdbcLeaseStore.builder(proxy).build())
                .withMessageContaining("TransactionAwareDataSourceProxy")
                .withMessageContaining("rollback");
    }

    @Test
    void lockTakenInsideACallersTransactionSurvivesItsRollback() throws SQLException {
        try (Connection caller = dataSource().getConnection()) {
            caller.setAutoCommit(false);
            writeCallerRow(caller);
            StoreLease held = take(store, key, "owner-in-tx", LONG);
            caller.rollback();

            assertThat(tryTake(newStore(dataSource()), key, "owner-other", LONG))
                    .as("still held after the caller's rollback")
                    .isNull();
            assertThat(held.release()).isTrue();
        }
    }

    @Test
    void lockReleasedInsideACallersTransactionStaysReleasedAfterItsRollback() throws SQLException {
        StoreLease held = take(store, key, "owner-a", LONG);
        try (Connection caller = dataSource().getConnection()) {
            caller.setAutoCommit(false);
            writeCallerRow(caller);
            assertThat(held.release()).isTrue();
            caller.rollback();
        }

        assertThat(tryTake(newStore(dataSource()), key, "owner-other", LONG)).isNotNull();
    }

    @Test
    void lockTakenInsideACallersCommittedTransactionIsHeldAndReleasedNormally() throws SQLException {
        StoreLease held;
        try (Connection caller = dataSource().getConnection()) {
            caller.setAutoCommit(false);
            writeCallerRow(caller);
            held = take(store, key, "owner-in-tx", LONG);
            caller.commit();
        }

        assertThat(tryTake(newStore(dataSource()), key, "owner-other", LONG)).isNull();
        assertThat(held.release()).isTrue();
        assertThat(tryTake(newStore(dataSource()), key, "owner-other", LONG)).isNotNull();
    }

    @Test
    void describeNamesTheDatabaseAndTable() {
        assertThat(store.describe())
                .isEqualTo("jdbc:" + Dialect.of(databaseProduct()).orElseThrow().id() + "[table=distlock_locks]");
    }

    /** The clean-up of unused rows on the same database. */
    @Nested
    class DeletingUnusedRows extends UnusedRowChecks {

        @Override
        DataSource dataSource() {
            return LeaseStoreChecks.this.dataSource();
        }
    }

    /** The fair lock's queue on the same database. */
    @Nested
    class QueueingFairly extends FairQueueChecks {

        @Override
        DataSource dataSource() {
            return LeaseStoreChecks.this.dataSource();
        }
    }

    /** The path locks' rows on the same database. */
    @Nested
    class LockingPaths extends PathRowChecks {

        @Override
        DataSource dataSource() {
            return LeaseStoreChecks.this.dataSource();
        }
    }

    /** An operator's release on the same database. */
    @Nested
    class ReleasingForAnOperator extends OperatorReleaseChecks {

        @Override
        DataSource dataSource() {
            return LeaseStoreChecks.this.dataSource();
        }
    }

    private JdbcLeaseStore newStore(DataSource dataSource) {
        return JdbcLeaseStore.builder(dataSource).build();
    }

    private static StoreLease take(LeaseStore store, String key, String owner, Duration lease) {
        StoreLease taken = tryTake(store, key, owner, lease);
        assertThat(taken).as("%s takes %s", owner, key).isNotNull();
        return taken;
    }

    private static StoreLease taken(LeaseStore.Acquisition acquisition) {
        try (acquisition) {
            StoreLease taken = acquisition.tryTake();
            assertThat(taken).as("taken").isNotNull();
            return taken;
        }
    }

    private static StoreLease tryRead(LeaseStore store, String key, String owner) {
        try (LeaseStore.Acquisition acquisition = store.beginRead(key, owner, "holder", LONG)) {
            return acquisition.tryTake();
        }
    }

    private static StoreLease tryTake(LeaseStore store, String key, String owner, Duration lease) {
        try (LeaseStore.Acquisition acquisition = store.begin(key, owner, lease)) {
            return acquisition.tryTake();
        }
    }

    /** A write of the caller's own, so that its transaction is really open on the database. */
    private void writeCallerRow(Connection caller) throws SQLException {
        try (PreparedStatement statement = caller.prepareStatement(
                "INSERT INTO distlock_locks (lock_key, owner_token, expires_at, fencing) VALUES (?, NULL, NULL, 1)")) {
            statement.setString(1, key + ":caller");
            statement.executeUpdate();
        }
    }

    /** Writes a row as another client would have, expiring {@code millis} from now on the database's clock. */
    private void writeRow(String rowKey, String owner, long millis, long fencing) throws SQLException {
        Dialect dialect = Dialect.of(databaseProduct()).orElseThrow();
        try (Connection connection = dataSource().getConnection();
                PreparedStatement statement = connection.prepareStatement(
                        "INSERT INTO distlock_locks (lock_key, owner_token, expires_at, fencing) VALUES (?, ?, "
                                + dialect.nowPlusMillis() + ", ?)")) {
            statement.setString(1, rowKey);
            statement.setString(2, owner);
            statement.setLong(3, millis);
            statement.setLong(4, fencing);
            statement.executeUpdate();
        }
    }

    /** Moves a row's expiry to {@code millis} from now on the database's clock, behind its owner's back. */
    private void setExpiry(String rowKey, long millis) throws SQLException {
        Dialect dialect = Dialect.of(databaseProduct()).orElseThrow();
        try (Connection connection = dataSource().getConnection();
                PreparedStatement statement = connection.prepareStatement(
                        "UPDATE distlock_locks SET expires_at = " + dialect.nowPlusMillis() + " WHERE lock_key = ?")) {
            statement.setLong(1, millis);
            statement.setString(2, rowKey);
            assertThat(statement.executeUpdate()).isEqualTo(1);
        }
    }

    /** How long until the row expires, on the database's clock. */
    private long expiresInMillis(String rowKey) throws SQLException {
        Dialect dialect = Dialect.of(databaseProduct()).orElseThrow();
        try (Connection connection = dataSource().getConnection();
                PreparedStatement statement = connection.prepareStatement(
                        "SELECT expires_at, " + dialect.now() + " FROM distlock_locks WHERE lock_key = ?")) {
            statement.setString(1, rowKey);
            try (ResultSet row = statement.executeQuery()) {
                assertThat(row.next()).isTrue();
                return Duration.between(
                                row.getObject(2, java.time.OffsetDateTime.class),
                                row.getObject(1, java.time.OffsetDateTime.class))
                        .toMillis();
            }
        }
    }

    private String databaseProduct() {
        try (Connection connection = dataSource().getConnection()) {
            return connection.getMetaData().getDatabaseProductName();
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
    }
}
