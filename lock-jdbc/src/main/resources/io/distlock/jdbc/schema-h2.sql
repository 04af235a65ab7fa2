-- The distlock lock table for H2. Run it once, or build JdbcLeaseStore with createTableIfMissing(true).
-- A key's row stays after release (owner_token and expires_at NULL), so its fencing counter only grows.
-- expires_at is written and compared on the database's clock only, in microseconds so that no rounding shortens a lease.
CREATE TABLE IF NOT EXISTS distlock_locks (
    lock_key    VARCHAR(1024) NOT NULL PRIMARY KEY,
    owner_token VARCHAR(64),
    expires_at  TIMESTAMP(6) WITH TIME ZONE,
    fencing     BIGINT NOT NULL
);
