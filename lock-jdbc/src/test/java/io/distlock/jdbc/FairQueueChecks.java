package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Kind;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The fair lock on a real database ({@link JdbcLeaseStore#beginFair}): waiters of several stores, standing for
 * separate processes, get the key in the order they joined its queue, and a waiter whose process died leaves the queue
 * when its ticket runs out.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
abstract class FairQueueChecks {

    private static final Duration LONG = Duration.ofSeconds(30);

    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final List<StoreLock> locks = new ArrayList<>();
    private String key;

    /** The database under test. */
    abstract DataSource dataSource();

    @BeforeEach
    void newKey() {
        key = "fair:" + UUID.randomUUID();
    }

    @AfterEach
    void close() throws InterruptedException {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        locks.forEach(StoreLock::close);
    }

    @Test
    void theFairLockIsALockOfItsOwnOverTheSameKeys() throws InterruptedException {
        StoreLock lock = newLock();
        Lock fair = lock.kind(Kind.FAIR).orElseThrow();

        assertThat(fair).isNotSameAs(lock).isSameAs(lock.fair());
        long fairToken;
        try (LockHandle held = fair.acquire(key, Lease.fixed(LONG))) {
            fairToken = held.fencingToken();
            assertThat(newLock().tryAcquire(key, Lease.fixed(LONG)))
                    .as("the plain lock of another process")
                    .isEmpty();
            assertThat(held.isHeld()).isTrue();
        }
        LockHandle plain = newLock().tryAcquire(key, Lease.fixed(LONG)).orElseThrow();
        assertThat(plain.fencingToken()).as("one counter for both locks").isGreaterThan(fairToken);
        plain.release();
    }

    @Test
    void waitersOfSeveralProcessesGetTheKeyInTheOrderTheyArrived() throws Exception {
        LockHandle held = newLock().fair().acquire(key, Lease.fixed(LONG));
        List<Integer> order = new CopyOnWriteArrayList<>();
        List<Future<?>> turns = new ArrayList<>();
        for (int arrival = 1; arrival <= 4; arrival++) {
            int waiter = arrival;
            Lock fair = newLock().fair();
            turns.add(threads.submit(() -> {
                try (LockHandle turn = fair.acquire(key, Lease.fixed(LONG))) {
                    order.add(waiter);
                }
                return null;
            }));
            // The holder found the key free and nobody queued, so it took no ticket: waiter n holds ticket n.
            await().atMost(Duration.ofSeconds(20)).until(() -> ticketIsLive(waiter));
        }

        held.release();
        for (Future<?> turn : turns) {
            turn.get(30, TimeUnit.SECONDS);
        }
        assertThat(order).containsExactly(1, 2, 3, 4);
    }

    /**
     * Many waiters of one process take turns on one key: the first of the process's line asks for all of them, so it
     * must never wait for the ticket of a waiter behind it in that line, which would wait for it in turn.
     */
    @Test
    void manyWaitersOfOneProcessTakeTurnsWithoutWaitingForEachOther() throws Exception {
        Lock fair = newLock().fair();
        List<Future<Integer>> threadsTurns = new ArrayList<>();
        for (int thread = 0; thread < 12; thread++) {
            threadsTurns.add(threads.submit(() -> {
                int refused = 0;
                for (int turn = 0; turn < 25; turn++) {
                    Optional<LockHandle> held = fair.tryAcquire(key, Lease.fixed(LONG), Duration.ofSeconds(15));
                    if (held.isEmpty()) {
                        refused++;
                    } else {
                        held.get().release();
                    }
                }
                return refused;
            }));
        }

        for (Future<Integer> turns : threadsTurns) {
            assertThat(turns.get(50, TimeUnit.SECONDS))
                    .as("turns refused after a wait of 15 s")
                    .isZero();
        }
    }

    @Test
    void aWaiterWhoseProcessDiedLeavesTheQueueWhenItsTicketRunsOut() throws Exception {
        LockHandle held = newLock().fair().acquire(key, Lease.fixed(LONG));
        JdbcLeaseStore diedWhileWaiting = JdbcLeaseStore.builder(dataSource()).build();
        LeaseStore.Acquisition dead = diedWhileWaiting.beginFair(key, "dead-waiter", "holder", LONG);
        assertThat(dead.tryTake()).as("queued behind the holder").isNull();
        Lock fair = newLock().fair();
        Future<Boolean> behind = threads.submit(() -> fair.tryAcquire(key, Lease.fixed(LONG), Duration.ofSeconds(20))
                .map(handle -> {
                    handle.release();
                    return true;
                })
                .orElse(false));
        await().atMost(Duration.ofSeconds(20)).until(() -> ticketIsLive(2));

        long released = System.nanoTime();
        held.release();

        assertThat(behind.get(30, TimeUnit.SECONDS))
                .as("got the key past the dead waiter")
                .isTrue();
        assertThat(Duration.ofNanos(System.nanoTime() - released))
                .as(
                        "within the dead waiter's ticket stay of %s and a poll",
                        diedWhileWaiting.polling().ticketStay())
                .isLessThan(diedWhileWaiting.polling().ticketStay().plusSeconds(8));
    }

    private boolean ticketIsLive(long ticket) throws SQLException {
        try (Connection connection = dataSource().getConnection();
                PreparedStatement read = connection.prepareStatement(
                        "SELECT 1 FROM " + JdbcLeaseStore.DEFAULT_TABLE + " WHERE lock_key = ?")) {
            read.setString(1, FairRows.ticket(key, ticket));
            try (ResultSet row = read.executeQuery()) {
                return row.next();
            }
        }
    }

    private StoreLock newLock() {
        StoreLock lock =
                StoreLock.builder(JdbcLeaseStore.builder(dataSource()).build()).build();
        locks.add(lock);
        return lock;
    }
}
