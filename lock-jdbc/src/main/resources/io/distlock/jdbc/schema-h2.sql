-- The distlock lock table for H2. Run it once, or build JdbcLeaseStore with createTableIfMissing(true).
-- A key's row stays after release (owner_token NULL, expires_at the time of the release), so its fencing counter only
-- grows; with deleteRowsUnusedFor (distlock.jdbc.delete-rows-unused-for) rows of keys unused for that time are deleted,
-- and an index on expires_at keeps finding them cheap on a large table: CREATE INDEX ... ON distlock_locks (expires_at);
-- expires_at is written and compared on the database's clock only, in microseconds so that no rounding shortens a lease.
-- locked_by and locked_at name the holder's instance and when it took the key, on the database's clock. A table made
-- before they existed keeps working without names; add them with:
--   ALTER TABLE distlock_locks ADD COLUMN locked_by VARCHAR(100);
--   ALTER TABLE distlock_locks ADD COLUMN locked_at TIMESTAMP(6) WITH TIME ZONE;
CREATE TABLE IF NOT EXISTS distlock_locks (
    lock_key    VARCHAR(1024) NOT NULL PRIMARY KEY,
    owner_token VARCHAR(64),
    expires_at  TIMESTAMP(6) WITH TIME ZONE,
    fencing     BIGINT NOT NULL,
    locked_by   VARCHAR(100),
    locked_at   TIMESTAMP(6) WITH TIME ZONE
);
