package io.distlock.jdbc;

/**
 * The statements on the lock table. Every time in them is the database's; the only parameters are keys, owner tokens,
 * lease lengths in milliseconds and, where the table has the holder's columns, the holder's instance name.
 *
 * @param namesHolder whether the statements write and read {@code locked_by} and {@code locked_at}: a table made before
 *     those columns existed works without them
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
        boolean namesHolder) {

    /** Reads both holder columns without reading a row: fails if either is missing. */
    static String holderColumnsProbe(String table) {
        return "SELECT locked_by, locked_at FROM " + table + " WHERE 1 = 0";
    }

    static LockSql of(Dialect dialect, String table, boolean namesHolder) {
        String now = dialect.now();
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
                        + ") VALUES (?, ?, " + expiry + ", 1" + holderValues
                        + ") ON CONFLICT (lock_key) DO UPDATE SET owner_token = EXCLUDED.owner_token, expires_at = "
                        + expiry + ", fencing = l.fencing + 1" + holderExcluded
                        + " WHERE l.owner_token IS NULL OR l.expires_at <= " + now + " RETURNING fencing",
                "UPDATE " + table + " SET owner_token = ?, expires_at = " + expiry + ", fencing = fencing + 1"
                        + holderUpdate + " WHERE lock_key = ? AND " + free,
                "SELECT fencing FROM " + table + " WHERE lock_key = ? AND owner_token = ?",
                "INSERT INTO " + table + " (lock_key, owner_token, expires_at, fencing" + holderColumns
                        + ") VALUES (?, ?, " + expiry + ", 1" + holderValues + ")",
                "UPDATE " + table + " SET expires_at = " + expiry + " WHERE " + ownedAndLive,
                "UPDATE " + table + " SET owner_token = NULL, expires_at = NULL" + holderCleared + " WHERE "
                        + ownedAndLive,
                "SELECT 1 FROM " + table + " WHERE " + ownedAndLive,
                "SELECT " + dialect.millisLeft() + holderRead + " FROM " + table
                        + " WHERE lock_key = ? AND owner_token IS NOT NULL AND expires_at > " + now,
                "SELECT 1 FROM " + table + " WHERE 1 = 0",
                namesHolder);
    }
}
