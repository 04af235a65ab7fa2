package io.distlock.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.store.StoreLock;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A separate JVM whose threads repeatedly do a non-atomic read-modify-write of a counter row in PostgreSQL (read, a
 * short pause, write), under the lock of the counter's key or, for the control run, without any lock. Each section
 * also marks itself inside the row atomically, to count overlaps, and checks that fencing tokens only grow. Arguments:
 * the server's port, "lock" or "none", threads, run time in ms, and the counter keys. At the end it prints {@code
 * DONE entries=<n> overlaps=<n> fencingRegressions=<n> lockErrors=<n>}.
 */
public final class ExclusionWorkerProcess {

    private final HikariDataSource pool;
    private final StoreLock lock;
    private final boolean locked;
    private final String[] keys;
    private final long endNanos;
    private final AtomicLong entries = new AtomicLong();
    private final AtomicLong overlaps = new AtomicLong();
    private final AtomicLong fencingRegressions = new AtomicLong();
    private final AtomicLong lockErrors = new AtomicLong();

    private ExclusionWorkerProcess(HikariDataSource pool, boolean locked, String[] keys, long runMillis) {
        this.pool = pool;
        this.lock = StoreLock.builder(JdbcLeaseStore.builder(pool).build()).build();
        this.locked = locked;
        this.keys = keys;
        this.endNanos = System.nanoTime() + runMillis * 1_000_000;
    }

    public static void main(String[] args) throws Exception {
        int threads = Integer.parseInt(args[2]);
        HikariConfig config = new HikariConfig();
        config.setDataSource(JdbcHolderProcess.postgres(Integer.parseInt(args[0])));
        config.setMaximumPoolSize(threads * 2 + 2);
        try (HikariDataSource pool = new HikariDataSource(config)) {
            ExclusionWorkerProcess worker = new ExclusionWorkerProcess(
                    pool, args[1].equals("lock"), args[4].split(","), Long.parseLong(args[3]));
            worker.run(threads);
            System.out.printf(
                    "DONE entries=%d overlaps=%d fencingRegressions=%d lockErrors=%d%n",
                    worker.entries.get(),
                    worker.overlaps.get(),
                    worker.fencingRegressions.get(),
                    worker.lockErrors.get());
            System.out.flush();
            worker.lock.close();
        }
    }

    private void run(int threads) throws InterruptedException {
        List<Thread> workers = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            Thread thread = new Thread(this::loop, "worker-" + t);
            thread.start();
            workers.add(thread);
        }
        for (Thread thread : workers) {
            thread.join();
        }
    }

    private void loop() {
        while (System.nanoTime() < endNanos) {
            String key = keys[ThreadLocalRandom.current().nextInt(keys.length)];
            try {
                if (!locked) {
                    section(key, 0);
                    continue;
                }
                Optional<LockHandle> held =
                        lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(5)), Duration.ofSeconds(2));
                if (held.isEmpty()) {
                    continue;
                }
                try (LockHandle handle = held.get()) {
                    section(key, handle.fencingToken());
                }
            } catch (RuntimeException | SQLException | InterruptedException e) {
                lockErrors.incrementAndGet();
                e.printStackTrace();
            }
        }
    }

    /** The critical section: mark inside, read the counter, pause, write it back plus one, mark outside. */
    private void section(String key, long fencingToken) throws SQLException, InterruptedException {
        if (update("UPDATE counters SET inside = inside + 1 WHERE name = ? RETURNING inside", key) > 1) {
            overlaps.incrementAndGet();
        }
        try (Connection connection = pool.getConnection()) {
            long value;
            long lastFence;
            try (PreparedStatement read =
                    connection.prepareStatement("SELECT value, last_fence FROM counters WHERE name = ?")) {
                read.setString(1, key);
                try (ResultSet row = read.executeQuery()) {
                    row.next();
                    value = row.getLong(1);
                    lastFence = row.getLong(2);
                }
            }
            if (locked && fencingToken <= lastFence) {
                fencingRegressions.incrementAndGet();
            }
            Thread.sleep(ThreadLocalRandom.current().nextInt(1, 3));
            try (PreparedStatement write =
                    connection.prepareStatement("UPDATE counters SET value = ?, last_fence = ? WHERE name = ?")) {
                write.setLong(1, value + 1);
                write.setLong(2, Math.max(lastFence, fencingToken));
                write.setString(3, key);
                write.executeUpdate();
            }
        }
        entries.incrementAndGet();
        update("UPDATE counters SET inside = inside - 1 WHERE name = ? RETURNING inside", key);
    }

    private long update(String sql, String key) throws SQLException {
        try (Connection connection = pool.getConnection();
                PreparedStatement statement = connection.prepareStatement(sql)) {
            statement.setString(1, key);
            try (ResultSet row = statement.executeQuery()) {
                row.next();
                return row.getLong(1);
            }
        }
    }
}
