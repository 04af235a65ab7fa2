package io.distlock.jdbc.fuzz;

import io.distlock.tck.fuzz.HolderRead;
import io.distlock.tck.fuzz.ReadBeforeLockView;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import javax.sql.DataSource;

/**
 * Reads a key's holder straight from PostgreSQL's lock table {@code distlock_locks}, on connections of the checker's
 * own, just before each judgement: the owner token and when its lease ends. The lease is compared with the database's
 * clock, as the store's takeover compares it, so a row whose lease ran out has no holder; its end is given on that
 * clock, which is the host's, as the checker's witness's is.
 */
final class JdbcLockView extends ReadBeforeLockView {

    /** Rounded down to the millisecond, so that a claim never outlives the lease it was read from. */
    private static final String READ =
            "SELECT owner_token, CAST(FLOOR(EXTRACT(EPOCH FROM expires_at) * 1000) AS BIGINT)"
                    + " FROM distlock_locks WHERE lock_key = ? AND owner_token IS NOT NULL AND expires_at > clock_timestamp()";

    /** Longer than a busy machine keeps a connection waiting, within the workers' grace after a run. */
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private final DataSource reads;

    JdbcLockView(DataSource reads) {
        super(PATIENCE);
        this.reads = reads;
    }

    @Override
    protected HolderRead readHolder(String lockKey, String ownerToken) throws SQLException {
        try (Connection connection = reads.getConnection();
                PreparedStatement statement = connection.prepareStatement(READ)) {
            statement.setString(1, lockKey);
            try (ResultSet row = statement.executeQuery()) {
                return row.next() ? HolderRead.until(row.getString(1), row.getLong(2)) : HolderRead.none();
            }
        }
    }
}
