package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLease;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The clean-up of unused rows ({@link JdbcLeaseStoreBuilder#deleteRowsUnusedFor(Duration)}) on a real database: a
 * free key's row goes after the unused time, a held key's row never does, and fencing tokens keep growing across a
 * deletion, which the tokens counted from 1 would not.
 */
abstract class UnusedRowChecks {

    private static final Duration LONG = Duration.ofSeconds(30);

    /** Every fencing token taken from the database's clock is larger: it is 2001-09-09 in microseconds. */
    private static final long CLOCK_TOKEN_FLOOR = 1_000_000_000_000_000L;

    private final List<JdbcLeaseStore> stores = new ArrayList<>();
    private String key;

    /** The database under test. */
    abstract DataSource dataSource();

    @BeforeEach
    void newKey() {
        key = "unused:" + UUID.randomUUID();
    }

    @AfterEach
    void closeStores() {
        stores.forEach(JdbcLeaseStore::close);
    }

    @Test
    void aReleasedKeysRowIsDeletedAfterTheUnusedTimeAndTheKeyComesBackWithALargerToken() throws SQLException {
        JdbcLeaseStore store = store(Duration.ofSeconds(1));
        StoreLease first = take(store, key, "owner-a");
        assertThat(first.release()).isTrue();

        await().atMost(Duration.ofSeconds(20)).until(() -> rows(key) == 0);
        StoreLease second = take(store, key, "owner-b");

        assertThat(first.fencingToken()).isGreaterThan(CLOCK_TOKEN_FLOOR);
        assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
    }

    @Test
    void aHeldKeysRowIsNeverDeleted() throws SQLException {
        JdbcLeaseStore store = store(Duration.ofSeconds(1));
        StoreLease held = take(store, key, "owner-a");
        String other = key + ":other";
        assertThat(take(store, other, "owner-b").release()).isTrue();

        // The other key's row going shows that sweeps ran after the held key was unused for as long.
        await().atMost(Duration.ofSeconds(20)).until(() -> rows(other) == 0);

        assertThat(rows(key)).isEqualTo(1);
        assertThat(held.extend(LONG)).isTrue();
        assertThat(tryTake(store, key, "owner-c", LONG)).isNull();
        assertThat(held.release()).isTrue();
    }

    @Test
    void theRowOfAnExpiredHoldIsDeletedAndItsHolderFindsOut() throws SQLException {
        JdbcLeaseStore store = store(Duration.ofSeconds(1));
        StoreLease expired = tryTake(store, key, "owner-a", Duration.ofMillis(200));
        assertThat(expired).isNotNull();

        await().atMost(Duration.ofSeconds(20)).until(() -> rows(key) == 0);

        assertThat(expired.extend(LONG)).isFalse();
        assertThat(expired.release()).isFalse();
        assertThat(take(store, key, "owner-b").fencingToken()).isGreaterThan(expired.fencingToken());
    }

    @Test
    void tokensCountedFromOneJumpToTheClockWhenTheCleanUpIsTurnedOn() {
        StoreLease counted = take(store(null), key, "owner-a");
        assertThat(counted.release()).isTrue();

        StoreLease clocked = take(store(Duration.ofHours(1)), key, "owner-b");

        assertThat(counted.fencingToken()).isEqualTo(1);
        assertThat(clocked.fencingToken()).isGreaterThan(CLOCK_TOKEN_FLOOR);
    }

    /**
     * Grants and deletions race on one key: a deletion right after each release, while two owners take turns. The
     * tokens, in the order of the grants, still grow, and no grant overlaps another.
     */
    @Test
    void tokensKeepGrowingAndHoldsNeverOverlapWhileRowsAreDeletedBetweenGrants() throws Exception {
        JdbcLeaseStore store = store(Duration.ofHours(1));
        List<Long> tokens = new ArrayList<>();
        AtomicBoolean held = new AtomicBoolean();
        AtomicInteger overlaps = new AtomicInteger();
        AtomicInteger deleted = new AtomicInteger();
        AtomicBoolean done = new AtomicBoolean();
        CompletableFuture<Void> deleter = CompletableFuture.runAsync(() -> {
            for (int round = 0; round < 100_000 && !done.get(); round++) {
                deleted.addAndGet(store.deleteRowsUnusedFor(Duration.ZERO));
            }
        });
        List<CompletableFuture<Void>> owners = new ArrayList<>();
        for (int owner = 0; owner < 2; owner++) {
            String name = "owner-" + owner;
            owners.add(CompletableFuture.runAsync(() -> {
                for (int round = 0; round < 150; round++) {
                    StoreLease lease = tryTake(store, key, name + ":" + round, LONG);
                    if (lease == null) {
                        continue;
                    }
                    if (!held.compareAndSet(false, true)) {
                        overlaps.incrementAndGet();
                    }
                    synchronized (tokens) {
                        tokens.add(lease.fencingToken());
                    }
                    held.set(false);
                    assertThat(lease.release()).isTrue();
                }
            }));
        }
        try {
            CompletableFuture.allOf(owners.toArray(CompletableFuture[]::new)).get(25, TimeUnit.SECONDS);
        } finally {
            done.set(true);
        }
        deleter.get(25, TimeUnit.SECONDS);

        assertThat(overlaps).hasValue(0);
        assertThat(deleted.get()).as("rows deleted between grants").isPositive();
        assertThat(tokens)
                .hasSizeGreaterThan(100)
                .isSortedAccordingTo(Long::compare)
                .doesNotHaveDuplicates();
    }

    /** The control: without tokens from the clock, a key whose row was deleted starts again from 1. */
    @Test
    void tokensCountedFromOneWouldGoBackAfterADeletion() {
        JdbcLeaseStore counting = store(null);
        assertThat(take(counting, key, "owner-a").release()).isTrue();
        StoreLease second = take(counting, key, "owner-b");
        assertThat(second.release()).isTrue();

        counting.deleteRowsUnusedFor(Duration.ZERO);

        assertThat(second.fencingToken()).isEqualTo(2);
        assertThat(take(counting, key, "owner-c").fencingToken()).isEqualTo(1);
    }

    @Test
    void anUnusedTimeUnderOneSecondIsRefused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> JdbcLeaseStore.builder(dataSource()).deleteRowsUnusedFor(Duration.ofMillis(500)))
                .withMessage("deleteRowsUnusedFor must be at least 1 s, or null for no clean-up, but was PT0.5S");
    }

    private JdbcLeaseStore store(Duration unused) {
        JdbcLeaseStore store =
                JdbcLeaseStore.builder(dataSource()).deleteRowsUnusedFor(unused).build();
        stores.add(store);
        return store;
    }

    private int rows(String rowKey) throws SQLException {
        try (Connection connection = dataSource().getConnection();
                PreparedStatement count =
                        connection.prepareStatement("SELECT COUNT(*) FROM distlock_locks WHERE lock_key = ?")) {
            count.setString(1, rowKey);
            try (ResultSet row = count.executeQuery()) {
                row.next();
                return row.getInt(1);
            }
        }
    }

    private static StoreLease take(LeaseStore store, String key, String owner) {
        StoreLease taken = tryTake(store, key, owner, LONG);
        assertThat(taken).as("%s takes %s", owner, key).isNotNull();
        return taken;
    }

    private static StoreLease tryTake(LeaseStore store, String key, String owner, Duration lease) {
        try (LeaseStore.Acquisition acquisition = store.begin(key, owner, lease)) {
            return acquisition.tryTake();
        }
    }
}
