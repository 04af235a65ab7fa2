package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Takes a semaphore key's permits as rows of the lock table. A key's permits are slot rows, {@code U+0001 key U+0001
 * n} for n from 1, beside a first row, slot 0, that holds the key's fencing counter, the highest slot ever used and the
 * end of the longest lease granted. A take locks that first row ({@code SELECT ... FOR UPDATE}), so that the grants of
 * one key follow each other: it counts the live slot rows up to the highest slot, and takes a free slot up to its
 * count if fewer than its count are live. Extending, releasing and confirming a permit are the lock's own statements
 * on its slot row. Lock keys never start with {@code U+0001} ({@link JdbcLeaseStore#validateKey}), so no key of a lock
 * is ever one of these rows.
 */
final class PermitRows {

    /** What starts and separates the rows of a semaphore key, and what no lock key starts with. */
    static final char MARK = '\u0001';

    /** How the first row's owner column keeps the highest slot ever used; owner tokens never start with {@code ~}. */
    private static final String SLOTS = "~slots:";

    private final LockRows rows;
    private final Connections connections;
    private final StoreErrors errors;
    private final LiveRows live;
    private final String readFirst;
    private final String lockFirst;
    private final String insertFirst;
    private final String advanceFirst;
    private final String fencingOfFirst;
    private final SlotWrites slotWrites;

    PermitRows(LockRows rows, Connections connections, StoreErrors errors, Dialect dialect, String table, LockSql sql) {
        this.rows = rows;
        this.connections = connections;
        this.errors = errors;
        this.live = new LiveRows(rows, table, dialect);
        String now = dialect.now();
        String expiry = dialect.nowPlusMillis();
        String next =
                sql.fencingFromClock() ? "GREATEST(fencing + 1, " + dialect.epochMicrosNow() + ")" : "fencing + 1";
        this.readFirst = "SELECT owner_token FROM " + table + " WHERE lock_key = ?";
        this.lockFirst = readFirst + " FOR UPDATE";
        this.insertFirst = "INSERT INTO " + table + " (lock_key, owner_token, expires_at, fencing) VALUES (?, '" + SLOTS
                + "0', " + now + ", 0)";
        this.advanceFirst = "UPDATE " + table + " SET owner_token = ?, fencing = " + next
                + ", expires_at = CASE WHEN expires_at IS NULL OR expires_at < " + expiry + " THEN " + expiry
                + " ELSE expires_at END WHERE lock_key = ?";
        this.fencingOfFirst = "SELECT fencing FROM " + table + " WHERE lock_key = ?";
        this.slotWrites = new SlotWrites(rows, dialect, table, sql);
    }

    /** The row of a semaphore key's slot; slot 0 is its first row. */
    static String slot(String key, int slot) {
        return MARK + key + MARK + slot;
    }

    /** The line that this JVM's waiters for a semaphore key's permits wait in: its first row's name. */
    static String line(String key) {
        return slot(key, 0);
    }

    /**
     * A permit granted: the slot row it holds and its fencing token.
     *
     * @param slotRow the slot row's key
     * @param fencingToken the key's token for this grant
     */
    record Granted(String slotRow, long fencingToken) {}

    /**
     * Takes a permit if fewer than {@code permits} of the key's slot rows are live on the database's clock.
     *
     * @return the grant, or null when {@code permits} or more are held
     */
    @Nullable
    Granted take(String key, int permits, String owner, String holder, long leaseMillis) throws SQLException {
        return connections.transactionAgainAfterDuplicateKey(
                errors, connection -> takeLocked(connection, key, permits, owner, holder, leaseMillis));
    }

    /**
     * Frees any slot of the key that the owner holds, for a take whose answer was lost.
     *
     * @return whether a slot was freed
     */
    boolean releaseAny(String key, String owner) throws SQLException {
        int highest = connections.autoCommit(connection -> {
            try (PreparedStatement read = rows.prepare(connection, readFirst, line(key));
                    ResultSet row = read.executeQuery()) {
                return row.next() ? highestSlot(row.getString(1)) : 0;
            }
        });
        boolean freed = false;
        for (int slot = 1; slot <= highest; slot++) {
            freed |= rows.release(slot(key, slot), owner);
        }
        return freed;
    }

    private @Nullable Granted takeLocked(
            Connection connection, String key, int permits, String owner, String holder, long leaseMillis)
            throws SQLException {
        String first = line(key);
        Integer highest = lockFirst(connection, first);
        if (highest == null) {
            try (PreparedStatement insert = rows.prepare(connection, insertFirst, first)) {
                insert.executeUpdate();
            }
            highest = 0;
        }
        int slots = Math.max(highest, permits);
        Set<String> live = liveSlots(connection, key, slots);
        if (live.size() >= permits) {
            return null;
        }
        int free = 1;
        while (live.contains(slot(key, free))) {
            free++;
        }
        long token = advance(connection, first, slots, leaseMillis);
        String slotRow = slot(key, free);
        slotWrites.grant(connection, slotRow, owner, holder, leaseMillis, token);
        return new Granted(slotRow, token);
    }

    /** Locks the key's first row; the highest slot it names, or null if the key has no first row yet. */
    private @Nullable Integer lockFirst(Connection connection, String first) throws SQLException {
        try (PreparedStatement read = rows.prepare(connection, lockFirst, first);
                ResultSet row = read.executeQuery()) {
            return row.next() ? highestSlot(row.getString(1)) : null;
        }
    }

    private static int highestSlot(@Nullable String owner) {
        return owner != null && owner.startsWith(SLOTS) ? Integer.parseInt(owner.substring(SLOTS.length())) : 0;
    }

    /** The slot rows of the key, up to {@code slots}, whose lease runs on the database's clock. */
    private Set<String> liveSlots(Connection connection, String key, int slots) throws SQLException {
        List<String> names = new ArrayList<>(slots);
        for (int slot = 1; slot <= slots; slot++) {
            names.add(slot(key, slot));
        }
        return live.of(connection, names);
    }

    /** Counts the grant on the first row, which keeps the highest slot and the longest lease; the new token. */
    private long advance(Connection connection, String first, int slots, long leaseMillis) throws SQLException {
        try (PreparedStatement update =
                rows.prepare(connection, advanceFirst, SLOTS + slots, leaseMillis, leaseMillis, first)) {
            update.executeUpdate();
        }
        try (PreparedStatement read = rows.prepare(connection, fencingOfFirst, first);
                ResultSet row = read.executeQuery()) {
            if (!row.next()) {
                throw new SQLException("the first row of a semaphore key could not be read back");
            }
            return row.getLong(1);
        }
    }
}
