-- The distlock lock table for MySQL and MariaDB. Run it once, or build JdbcLeaseStore with createTableIfMissing(true).
-- A key's row stays after release (owner_token NULL, expires_at the time of the release), so its fencing counter only
-- grows; with deleteRowsUnusedFor (distlock.jdbc.delete-rows-unused-for) rows of keys unused for that time are deleted,
-- and an index on expires_at keeps finding them cheap on a large table: CREATE INDEX ... ON distlock_locks (expires_at);
-- expires_at holds UTC (UTC_TIMESTAMP(6)), written and compared on the database's clock only.
-- locked_by and locked_at name the holder's instance and when it took the key, in UTC on the database's clock. A table
-- made before they existed keeps working without names; add them with:
--   ALTER TABLE distlock_locks ADD COLUMN locked_by VARCHAR(100) CHARACTER SET utf8mb4 NULL,
--     ADD COLUMN locked_at DATETIME(6) NULL;
-- lock_key is 768 characters because InnoDB indexes at most 3072 bytes (4 per utf8mb4 character); the binary
-- collation keeps keys that differ only in case or accents apart.
CREATE TABLE IF NOT EXISTS distlock_locks (
    lock_key    VARCHAR(768) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NOT NULL PRIMARY KEY,
    owner_token VARCHAR(64) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin NULL,
    expires_at  DATETIME(6) NULL,
    fencing     BIGINT NOT NULL,
    locked_by   VARCHAR(100) CHARACTER SET utf8mb4 NULL,
    locked_at   DATETIME(6) NULL
) ENGINE = InnoDB;
