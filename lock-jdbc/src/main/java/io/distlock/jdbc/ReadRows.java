package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Takes a key for reading as rows of the lock table, beside the key's own row that its writers take.
 *
 * <ul>
 *   <li>Each read is a slot row, {@code U+0001 key U+0001 r<n>}, with its owner, lease and fencing token.
 *   <li>While readers hold the key, the key's own row names no owner but {@code ~readers:<highest slot>}, and its expiry
 *       is never earlier than any reader's: a writer's take, which needs the key's row free or expired, is refused
 *       while any read may be live, and takes the key once the last reader left or the longest read ran out.
 *   <li>A writer that waits marks the row {@code U+0001 key U+0001 w} with an expiry a little beyond its next poll;
 *       a reader is refused while that mark runs, so that waiting writers never starve. A writer that stopped waiting
 *       without clearing its mark keeps new readers out until it runs out.
 * </ul>
 *
 * <p>Every change to a read locks the key's row first ({@code SELECT ... FOR UPDATE}), so that the reads of a key and
 * its writers' takes follow each other: a take reads the key's row, the wait mark and the live slots up to the highest
 * slot, then counts the grant on the key's row, whose fencing counter the writers share, and writes a free slot. A
 * release frees its slot and an extension moves its slot's expiry; both then set the key's row's expiry to the latest
 * of its live reads, so that the key is free for writers as soon as no read is live, whichever ran out unreleased. Lock keys never start with {@code U+0001} ({@link
 * JdbcLeaseStore#validateKey}), and a semaphore's slots are numbers, so no other key ever uses these rows.
 */
final class ReadRows {

    /** How the key's row names its readers; owner tokens never start with {@code ~}. */
    private static final String READERS = "~readers:";

    private final LockRows rows;
    private final LiveRows live;
    private final Connections connections;
    private final StoreErrors errors;
    private final SlotWrites slots;
    private final String lockKey;
    private final String insertFree;
    private final String readWaitMark;
    private final String countRead;
    private final String fencingOfKey;
    private final String releaseSlot;
    private final String extendSlot;
    private final String table;
    private final String now;
    private final String markWaiting;
    private final String clearWaiting;
    private final String slotOf;

    ReadRows(LockRows rows, Connections connections, StoreErrors errors, Dialect dialect, String table, LockSql sql) {
        this.rows = rows;
        this.live = new LiveRows(rows, table, dialect);
        this.connections = connections;
        this.errors = errors;
        String now = dialect.now();
        String expiry = dialect.nowPlusMillis();
        String later =
                "CASE WHEN expires_at IS NULL OR expires_at < " + expiry + " THEN " + expiry + " ELSE expires_at END";
        String next =
                sql.fencingFromClock() ? "GREATEST(fencing + 1, " + dialect.epochMicrosNow() + ")" : "fencing + 1";
        String liveNow = "CASE WHEN expires_at > " + now + " THEN 1 ELSE 0 END";
        String holderCleared = sql.namesHolder() ? ", locked_by = NULL, locked_at = NULL" : "";
        this.lockKey = "SELECT owner_token, " + liveNow + " FROM " + table + " WHERE lock_key = ? FOR UPDATE";
        this.insertFree = "INSERT INTO " + table + " (lock_key, owner_token, expires_at, fencing) VALUES (?, NULL, "
                + now + ", 0)";
        this.readWaitMark = "SELECT " + liveNow + " FROM " + table + " WHERE lock_key = ?";
        this.countRead = "UPDATE " + table + " SET owner_token = ?, fencing = " + next + ", expires_at = " + later
                + holderCleared + " WHERE lock_key = ?";
        this.fencingOfKey = "SELECT fencing FROM " + table + " WHERE lock_key = ?";
        this.slots = new SlotWrites(rows, dialect, table, sql);
        String ownedAndLive = "lock_key = ? AND owner_token = ? AND expires_at > " + now;
        this.releaseSlot = "UPDATE " + table + " SET owner_token = NULL, expires_at = " + now + holderCleared
                + " WHERE " + ownedAndLive;
        this.extendSlot = "UPDATE " + table + " SET expires_at = " + expiry + " WHERE " + ownedAndLive;
        this.table = table;
        this.now = now;
        this.markWaiting = "UPDATE " + table + " SET expires_at = " + expiry + " WHERE lock_key = ?";
        this.clearWaiting =
                "UPDATE " + table + " SET expires_at = " + now + " WHERE lock_key = ? AND expires_at > " + now;
        this.slotOf = "SELECT lock_key FROM " + table + " WHERE owner_token = ? AND lock_key IN ";
    }

    /** The row of a read of the key. */
    static String slot(String key, int slot) {
        return PermitRows.MARK + key + PermitRows.MARK + "r" + slot;
    }

    /** The row whose expiry marks that a writer waits for the key. */
    static String waitMark(String key) {
        return PermitRows.MARK + key + PermitRows.MARK + "w";
    }

    /** How many characters the rows of a key's readers add to the key's. */
    static int rowNameOverhead() {
        return slot("", Integer.MAX_VALUE).length();
    }

    /**
     * Takes the key for reading if no writer's lease runs on the database's clock and no writer's wait mark does.
     *
     * @return the grant, or null while a writer holds the key or waits for it
     */
    JdbcAcquisition.@Nullable Grant take(String key, String owner, String holder, long leaseMillis)
            throws SQLException {
        return connections.transactionAgainAfterDuplicateKey(
                errors, connection -> takeLocked(connection, key, owner, holder, leaseMillis));
    }

    /**
     * Moves the read's expiry to {@code leaseMillis} from now if the owner still holds it, and the key's row's to the
     * end of its longest live read.
     */
    boolean extend(String key, String slotRow, String owner, long leaseMillis) throws SQLException {
        return connections.transaction(connection -> {
            KeyRow row = lockKey(connection, key);
            if (row == null || rows.write(connection, extendSlot, leaseMillis, slotRow, owner) != 1) {
                return false;
            }
            settle(connection, key, row.highestSlot());
            return true;
        });
    }

    /**
     * Frees the read if the owner still holds it, and moves the key's row's expiry to the end of its longest live read:
     * to now, which frees the key for writers, when no other read is live.
     */
    boolean release(String key, String slotRow, String owner) throws SQLException {
        return connections.transaction(connection -> {
            KeyRow row = lockKey(connection, key);
            if (row == null || rows.write(connection, releaseSlot, slotRow, owner) != 1) {
                return false;
            }
            settle(connection, key, row.highestSlot());
            return true;
        });
    }

    /**
     * Frees any read of the key that the owner holds, for a take whose answer was lost.
     *
     * @return whether a read was freed
     */
    boolean releaseAny(String key, String owner) throws SQLException {
        String held = connections.transaction(connection -> {
            KeyRow row = lockKey(connection, key);
            if (row == null) {
                return null;
            }
            int slots = row.highestSlot();
            if (slots == 0) {
                return null;
            }
            List<String> named = new ArrayList<>(slots);
            for (int slot = 1; slot <= slots; slot++) {
                named.add(slot(key, slot));
            }
            try (PreparedStatement read = rows.prepare(
                            connection, slotOf + LockRows.marks(slots), LockRows.parameters(named, owner));
                    ResultSet found = read.executeQuery()) {
                return found.next() ? found.getString(1) : null;
            }
        });
        return held != null && release(key, held, owner);
    }

    /**
     * Marks that a writer waits for the key, for {@code markMillis} on the database's clock, where the key ever had
     * readers: a key without a wait row has none to keep out.
     */
    void markWriterWaiting(String key, long markMillis) throws SQLException {
        connections.autoCommit(connection -> rows.write(connection, markWaiting, markMillis, waitMark(key)));
    }

    /** Ends the mark of a waiting writer, once it took the key or stopped waiting. */
    void clearWriterWaiting(String key) throws SQLException {
        connections.autoCommit(connection -> rows.write(connection, clearWaiting, waitMark(key)));
    }

    private JdbcAcquisition.@Nullable Grant takeLocked(
            Connection connection, String key, String owner, String holder, long leaseMillis) throws SQLException {
        KeyRow row = lockKey(connection, key);
        if (row == null) {
            rows.write(connection, insertFree, key);
            row = new KeyRow(null, false);
        }
        if (row.heldByWriter() || writerWaits(connection, key)) {
            return null;
        }
        int highest = row.highestSlot();
        Set<String> taken = liveSlots(connection, key, highest);
        int free = 1;
        while (taken.contains(slot(key, free))) {
            free++;
        }
        rows.write(connection, countRead, READERS + Math.max(highest, free), leaseMillis, leaseMillis, key);
        long token = fencingOfKey(connection, key);
        String slotRow = slot(key, free);
        slots.grant(connection, slotRow, owner, holder, leaseMillis, token);
        return new JdbcAcquisition.Grant(slotRow, token);
    }

    /** Whether a writer's wait mark runs; makes the key's wait row, free, where it has none yet. */
    private boolean writerWaits(Connection connection, String key) throws SQLException {
        String mark = waitMark(key);
        try (PreparedStatement read = rows.prepare(connection, readWaitMark, mark);
                ResultSet row = read.executeQuery()) {
            if (row.next()) {
                return row.getInt(1) == 1;
            }
        }
        rows.write(connection, insertFree, mark);
        return false;
    }

    /** Locks the key's row and reads it, or answers null if the key has no row. */
    private @Nullable KeyRow lockKey(Connection connection, String key) throws SQLException {
        try (PreparedStatement read = rows.prepare(connection, lockKey, key);
                ResultSet row = read.executeQuery()) {
            return row.next() ? new KeyRow(row.getString(1), row.getInt(2) == 1) : null;
        }
    }

    private Set<String> liveSlots(Connection connection, String key, int highest) throws SQLException {
        return live.of(connection, slots(key, highest));
    }

    /**
     * Sets the expiry of the key's row, which readers hold, to the latest expiry of its live reads, or to now if none
     * is live. Without it, a read whose lease ran out unreleased, after a longer one was released, would keep writers
     * out until the longest lease ever granted ended. The aggregate is read from a derived table, which MySQL
     * materialises before the update, since it refuses an update that reads its own table otherwise.
     */
    private void settle(Connection connection, String key, int highest) throws SQLException {
        List<String> names = slots(key, highest);
        String marks = String.join(", ", Collections.nCopies(names.size(), "?"));
        String latest = names.isEmpty()
                ? now
                : "COALESCE((SELECT latest FROM (SELECT MAX(expires_at) AS latest FROM " + table
                        + " WHERE lock_key IN ("
                        + marks + ") AND owner_token IS NOT NULL AND expires_at > " + now + ") live_reads), " + now
                        + ")";
        List<Object> parameters = new ArrayList<>(names);
        parameters.add(key);
        rows.write(
                connection,
                "UPDATE " + table + " SET expires_at = " + latest + " WHERE lock_key = ? AND owner_token LIKE '"
                        + READERS + "%'",
                parameters.toArray());
    }

    private static List<String> slots(String key, int highest) {
        List<String> names = new ArrayList<>(highest);
        for (int slot = 1; slot <= highest; slot++) {
            names.add(slot(key, slot));
        }
        return names;
    }

    private long fencingOfKey(Connection connection, String key) throws SQLException {
        try (PreparedStatement read = rows.prepare(connection, fencingOfKey, key);
                ResultSet row = read.executeQuery()) {
            if (!row.next()) {
                throw new SQLException("the row of a key taken for reading could not be read back");
            }
            return row.getLong(1);
        }
    }

    /**
     * The key's row as a take, release or extension of a read finds it.
     *
     * @param owner its owner column: a writer's token, the readers' mark, an operator's mark, or null
     * @param live whether its expiry lies ahead on the database's clock
     */
    private record KeyRow(@Nullable String owner, boolean live) {

        boolean heldByWriter() {
            return live && owner != null && !owner.startsWith("~");
        }

        /** The highest slot that a live read may hold: none unless readers hold the key. */
        int highestSlot() {
            return live && owner != null && owner.startsWith(READERS)
                    ? Integer.parseInt(owner.substring(READERS.length()))
                    : 0;
        }
    }
}
