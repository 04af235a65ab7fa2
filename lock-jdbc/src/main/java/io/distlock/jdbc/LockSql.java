package io.distlock.jdbc;

/**
 * The statements on the lock table. Every time in them is the database's; the only parameters are keys, owner tokens
 * and lease lengths in milliseconds.
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
        String probe) {

    static LockSql of(Dialect dialect, String table) {
        String now = dialect.now();
        String expiry = dialect.nowPlusMillis();
        String free = "(owner_token IS NULL OR expires_at <= " + now + ")";
        String ownedAndLive = "lock_key = ? AND owner_token = ? AND expires_at > " + now;
        return new LockSql(
                "INSERT INTO " + table + " AS l (lock_key, owner_token, expires_at, fencing) VALUES (?, ?, " + expiry
                        + ", 1) ON CONFLICT (lock_key) DO UPDATE SET owner_token = EXCLUDED.owner_token, expires_at = "
                        + expiry + ", fencing = l.fencing + 1 WHERE l.owner_token IS NULL OR l.expires_at <= " + now
                        + " RETURNING fencing",
                "UPDATE " + table + " SET owner_token = ?, expires_at = " + expiry
                        + ", fencing = fencing + 1 WHERE lock_key = ? AND " + free,
                "SELECT fencing FROM " + table + " WHERE lock_key = ? AND owner_token = ?",
                "INSERT INTO " + table + " (lock_key, owner_token, expires_at, fencing) VALUES (?, ?, " + expiry
                        + ", 1)",
                "UPDATE " + table + " SET expires_at = " + expiry + " WHERE " + ownedAndLive,
                "UPDATE " + table + " SET owner_token = NULL, expires_at = NULL WHERE " + ownedAndLive,
                "SELECT 1 FROM " + table + " WHERE " + ownedAndLive,
                "SELECT " + dialect.millisLeft() + " FROM " + table
                        + " WHERE lock_key = ? AND owner_token IS NOT NULL AND expires_at > " + now,
                "SELECT 1 FROM " + table + " WHERE 1 = 0");
    }
}
