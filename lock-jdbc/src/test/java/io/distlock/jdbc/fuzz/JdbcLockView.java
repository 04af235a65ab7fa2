package io.distlock.jdbc.fuzz;

import io.distlock.tck.fuzz.HolderRead;
import io.distlock.tck.fuzz.ReadBeforeLockView;
import io.distlock.tck.fuzz.SectionMix;
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

    /**
     * A semaphore key's live permits among its first slot rows, as {@code PermitRows} lays them out ({@code U+0001 key
     * U+0001 n}): as many as a broken control's count, one more than the run's.
     */
    private static final String READ_PERMITS =
            "SELECT owner_token, CAST(FLOOR(EXTRACT(EPOCH FROM expires_at) * 1000) AS BIGINT) FROM distlock_locks"
                    + " WHERE lock_key IN (?, ?, ?, ?) AND owner_token IS NOT NULL AND expires_at > clock_timestamp()";

    /** The slots {@link #READ_PERMITS} reads. */
    private static final int SLOTS = SectionMix.PERMITS_PER_KEY + 1;

    /**
     * What {@link JdbcFuzzLocks} puts before a key to name its semaphore's permits: no key of a run starts so.
     */
    static final String PERMITS = "permits/";

    /** What {@link JdbcFuzzLocks} puts before a key of a read-write run, whose readers hold slot rows of the key. */
    static final String READS = "reads/";

    /**
     * The holder row of a path of a tree, as {@code PathRows} lays it out ({@code U+0001 U+0001 tree U+0001 h path}):
     * a plain row with its owner and lease.
     */
    static String pathHolderRow(String tree, String path) {
        return "\u0001\u0001" + tree + "\u0001h" + path;
    }

    /** How the key's row names its readers while they hold it, as {@code ReadRows} writes it. */
    private static final String READERS_MARK = "~readers:";

    /** The holder of a key that readers hold to a section that is not among them: no owner token is so. */
    private static final String READERS = "(readers)";

    /** The holder of a semaphore key's permits to a section that holds none of them: no owner token is so. */
    private static final String OTHERS = "(permits)";

    /** Longer than a busy machine keeps a connection waiting, within the workers' grace after a run. */
    private static final Duration PATIENCE = Duration.ofSeconds(10);

    private final DataSource reads;

    JdbcLockView(DataSource reads) {
        super(PATIENCE);
        this.reads = reads;
    }

    @Override
    protected HolderRead readHolder(String lockKey, String ownerToken) throws SQLException {
        if (lockKey.startsWith(PERMITS)) {
            return readPermit(lockKey.substring(PERMITS.length()), ownerToken);
        }
        if (lockKey.startsWith(READS)) {
            return readReadOrWrite(lockKey.substring(READS.length()), ownerToken);
        }
        return readKey(lockKey);
    }

    private HolderRead readKey(String key) throws SQLException {
        try (Connection connection = reads.getConnection();
                PreparedStatement statement = connection.prepareStatement(READ)) {
            statement.setString(1, key);
            try (ResultSet row = statement.executeQuery()) {
                return row.next() ? HolderRead.until(row.getString(1), row.getLong(2)) : HolderRead.none();
            }
        }
    }

    /**
     * A section of a read-write run: a writer is the key's row's owner; while readers hold the key, its row names their
     * highest slot, and a reader is the holder while its own slot row's lease runs, with that slot's end. To any other
     * section the readers are another owner ({@value #READERS}), whose lease the witness never judges.
     */
    private HolderRead readReadOrWrite(String key, String ownerToken) throws SQLException {
        HolderRead keyRow = readKey(key);
        if (keyRow.holder() == null || !keyRow.holder().startsWith(READERS_MARK)) {
            return keyRow;
        }
        int slots = Integer.parseInt(keyRow.holder().substring(READERS_MARK.length()));
        StringBuilder query = new StringBuilder(
                "SELECT owner_token, CAST(FLOOR(EXTRACT(EPOCH FROM expires_at) * 1000) AS BIGINT) FROM distlock_locks"
                        + " WHERE owner_token = ? AND expires_at > clock_timestamp() AND lock_key IN (?");
        query.append(", ?".repeat(slots - 1)).append(')');
        try (Connection connection = reads.getConnection();
                PreparedStatement statement = connection.prepareStatement(query.toString())) {
            statement.setString(1, ownerToken);
            for (int slot = 1; slot <= slots; slot++) {
                statement.setString(slot + 1, "\u0001" + key + "\u0001r" + slot);
            }
            try (ResultSet row = statement.executeQuery()) {
                return row.next() ? HolderRead.until(ownerToken, row.getLong(2)) : HolderRead.forGood(READERS);
            }
        }
    }

    /**
     * A section's permit: its own live slot row. While only others hold permits, the key is another owner's, whose
     * lease the witness never judges.
     */
    private HolderRead readPermit(String key, String ownerToken) throws SQLException {
        try (Connection connection = reads.getConnection();
                PreparedStatement statement = connection.prepareStatement(READ_PERMITS)) {
            for (int slot = 1; slot <= SLOTS; slot++) {
                statement.setString(slot, "\u0001" + key + "\u0001" + slot);
            }
            boolean others = false;
            try (ResultSet row = statement.executeQuery()) {
                while (row.next()) {
                    if (row.getString(1).equals(ownerToken)) {
                        return HolderRead.until(ownerToken, row.getLong(2));
                    }
                    others = true;
                }
            }
            return others ? HolderRead.forGood(OTHERS) : HolderRead.none();
        }
    }
}
