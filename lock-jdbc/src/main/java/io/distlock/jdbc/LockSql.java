package io.distlock.jdbc;

import java.util.function.UnaryOperator;

/**
 * The statements on the lock table. Every time in them is the database's; the only parameters are keys, owner tokens,
 * lease lengths in milliseconds and, where the table has the holder's columns, the holder's instance name.
 *
 * <p>A release keeps the row and sets {@code expires_at} to the time of the release, so that every row of a free key
 * says when it was last used.
 *
 * @param namesHolder whether the statements write and read {@code locked_by} and {@code locked_at}: a table made before
 *     those columns existed works without them
 * @param fencingFromClock whether a grant's fencing token is at least the database's time in microseconds since 1970
 *     (and the last token plus one), so that a key whose row was deleted still gets a larger token than before; else
 *     each row counts from 1
 */
record LockSql(
        String upsert,
        String takeOver,
        String fencingOf,
        String insert,
        String extend,
        String release,
        String owned,
        String remaining,
        String probe,
        String releaseForOperator,
        String releasedForOperator,
        String seedFromClock,
        String deleteUnused,
        boolean namesHolder,
        boolean fencingFromClock) {

    /**
     * The owner token that an operator's release leaves in a row, so that the holder it freed can tell why its key is
     * gone; owner tokens never start with {@code ~}.
     */
    static final String RELEASED_BY_OPERATOR = "~operator";

    /** At most how many rows one {@link #deleteUnused()} statement deletes, so that it holds few row locks at once. */
    static final int DELETE_BATCH = 500;

    /** Reads both holder columns without reading a row: fails if either is missing. */
    static String holderColumnsProbe(String table) {
        return "SELECT locked_by, locked_at FROM " + table + " WHERE 1 = 0";
    }

    static LockSql of(Dialect dialect, String table, boolean namesHolder, boolean fencingFromClock) {
        String now = dialect.now();
        String clock = dialect.epochMicrosNow();
        // A new row's token from the clock comes from seedFromClock, after the insert: 0 marks it until then.
        String firstToken = fencingFromClock ? "0" : "1";
        UnaryOperator<String> nextToken =
                counter -> fencingFromClock ? "GREATEST(" + counter + " + 1, " + clock + ")" : counter + " + 1";
        String unused = "(expires_at IS NULL OR expires_at < " + dialect.nowPlusMillis() + ")";
        String expiry = dialect.nowPlusMillis();
        String free = "(owner_token IS NULL OR expires_at <= " + now + ")";
        String ownedAndLive = "lock_key = ? AND owner_token = ? AND expires_at > " + now;
        String holderColumns = namesHolder ? ", locked_by, locked_at" : "";
        String holderValues = namesHolder ? ", ?, " + now : "";
        String holderUpdate = namesHolder ? ", locked_by = ?, locked_at = " + now : "";
        String holderExcluded = namesHolder ? ", locked_by = EXCLUDED.locked_by, locked_at = EXCLUDED.locked_at" : "";
        String holderCleared = namesHolder ? ", locked_by = NULL, locked_at = NULL" : "";
        String holderRead = namesHolder ? ", locked_by, " + dialect.epochMillis("locked_at") : ", NULL, NULL";
        return new LockSql(
                "INSERT INTO " + table + " AS l (lock_key, owner_token, expires_at, fencing" + holderColumns
                        + ") VALUES (?, ?, " + expiry + ", " + firstToken + holderValues
                        + ") ON CONFLICT (lock_key) DO UPDATE SET owner_token = EXCLUDED.owner_token, expires_at = "
                        + expiry + ", fencing = " + nextToken.apply("l.fencing") + holderExcluded
                        + " WHERE l.owner_token IS NULL OR l.expires_at <= " + now + " RETURNING fencing",
                "UPDATE " + table + " SET owner_token = ?, expires_at = " + expiry + ", fencing = "
                        + nextToken.apply("fencing") + holderUpdate + " WHERE lock_key = ? AND " + free,
                "SELECT fencing FROM " + table + " WHERE lock_key = ? AND owner_token = ?",
                "INSERT INTO " + table + " (lock_key, owner_token, expires_at, fencing" + holderColumns
                        + ") VALUES (?, ?, " + expiry + ", " + firstToken + holderValues + ")",
                "UPDATE " + table + " SET expires_at = " + expiry + " WHERE " + ownedAndLive,
                "UPDATE " + table + " SET owner_token = NULL, expires_at = " + now + holderCleared + " WHERE "
                        + ownedAndLive,
                "SELECT 1 FROM " + table + " WHERE " + ownedAndLive,
                "SELECT " + dialect.millisLeft() + holderRead + " FROM " + table
                        + " WHERE lock_key = ? AND owner_token IS NOT NULL AND expires_at > " + now,
                "SELECT 1 FROM " + table + " WHERE 1 = 0",
                "UPDATE " + table + " SET owner_token = '" + RELEASED_BY_OPERATOR + "', expires_at = " + now
                        + holderCleared
                        + " WHERE lock_key = ? AND fencing = ? AND owner_token NOT LIKE '~%' AND expires_at > "
                        + now,
                "SELECT 1 FROM " + table + " WHERE lock_key = ? AND fencing = ? AND owner_token = '"
                        + RELEASED_BY_OPERATOR + "'",
                "UPDATE " + table + " SET fencing = " + nextToken.apply("fencing")
                        + " WHERE lock_key = ? AND owner_token = ?",
                dialect.deleteAtMost(table, unused, DELETE_BATCH),
                namesHolder,
                fencingFromClock);
    }
}
