package io.distlock.jdbc;

import io.distlock.store.LeaseReading;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.StringJoiner;
import org.jspecify.annotations.Nullable;

/**
 * Takes, extends and releases keys as rows of the lock table, comparing the owner token on every change. Every
 * statement carries the store's call timeout as its query timeout, so that one the database keeps waiting (on a row
 * lock, say) gives its worker thread and pooled connection back, rather than holding them after its caller gave up.
 */
final class LockRows implements JdbcStoreLease.RowChanges {

    private final Connections connections;
    private final Dialect dialect;
    private final LockSql sql;
    private final StoreErrors errors;
    private final int queryTimeoutSeconds;

    /**
     * @param callTimeout how long a statement may run; JDBC counts whole seconds, so it is rounded up, to at least 1 s
     */
    LockRows(Connections connections, Dialect dialect, LockSql sql, StoreErrors errors, Duration callTimeout) {
        this.connections = connections;
        this.dialect = dialect;
        this.sql = sql;
        this.errors = errors;
        this.queryTimeoutSeconds =
                (int) Math.min(Integer.MAX_VALUE, Math.max(1, (callTimeout.toMillis() + 999) / 1000));
    }

    /**
     * Takes the key if its row is absent, released, or expired on the database's clock; where the table has the
     * holder's columns, the row names {@code holder} and the database's time of the grant.
     *
     * @return the new fencing token, or null when another owner holds the key
     */
    @Nullable
    Long take(String key, String owner, String holder, long leaseMillis) throws SQLException {
        if (dialect.upsertReturning()) {
            return connections.autoCommit(connection -> upsert(connection, key, owner, holder, leaseMillis));
        }
        Long taken = takeOver(key, owner, holder, leaseMillis);
        if (taken != null) {
            return taken;
        }
        if (connections.autoCommit(connection -> insert(connection, key, owner, holder, leaseMillis))) {
            return sql.fencingFromClock() ? seedFromClock(key, owner) : Long.valueOf(1);
        }
        // Another session inserted the row after our update found none; it may have released it already.
        return takeOver(key, owner, holder, leaseMillis);
    }

    /** Moves the expiry to {@code leaseMillis} from now if the owner still holds the key. */
    @Override
    public boolean extend(String key, String owner, long leaseMillis) throws SQLException {
        return update(sql.extend(), leaseMillis, key, owner) == 1;
    }

    /**
     * Frees the key if the owner still holds it; the row and its fencing counter stay, and the row's expiry becomes the
     * time of the release.
     */
    @Override
    public boolean release(String key, String owner) throws SQLException {
        return update(sql.release(), key, owner) == 1;
    }

    /** Whether the owner still holds the key: its token is the row's and the expiry lies ahead on the database's clock. */
    boolean owned(String key, String owner) throws SQLException {
        return exists(sql.owned(), key, owner);
    }

    /**
     * How long the key's current owner still holds it on the database's clock, and who took it when, or null when no
     * owner holds it.
     */
    @Nullable
    LeaseReading read(String key) throws SQLException {
        return connections.autoCommit(connection -> {
            try (PreparedStatement statement = prepare(connection, sql.remaining())) {
                statement.setString(1, key);
                try (ResultSet row = statement.executeQuery()) {
                    if (!row.next()) {
                        return null;
                    }
                    Duration remaining = Duration.ofMillis(Math.max(0, row.getLong(1)));
                    String holder = row.getString(2);
                    long since = row.getLong(3);
                    return holder == null || row.wasNull()
                            ? new LeaseReading(remaining, null, null)
                            : new LeaseReading(remaining, holder, Instant.ofEpochMilli(since));
                }
            }
        });
    }

    /**
     * Frees the key for an operator if its current grant has this fencing token and its lease still runs, leaving
     * {@link LockSql#RELEASED_BY_OPERATOR} as the row's owner so that the freed holder can tell why.
     */
    boolean releaseForOperator(String key, long fencingToken) throws SQLException {
        return update(sql.releaseForOperator(), key, fencingToken) == 1;
    }

    /** Whether an operator freed the grant with this fencing token, and nobody took the key since. */
    boolean releasedForOperator(String key, long fencingToken) throws SQLException {
        return exists(sql.releasedForOperator(), key, fencingToken);
    }

    /**
     * Deletes the rows of keys that nobody holds and nobody took or released for {@code unusedMillis} on the database's
     * clock, a batch at a time. Each row is tested again as it is deleted, so a key taken meanwhile keeps its row.
     *
     * @return how many rows were deleted
     */
    int deleteUnused(long unusedMillis) throws SQLException {
        // The age is the statement's only parameter; PostgreSQL's form names it twice.
        Object[] ages = new Object
                [(int) sql.deleteUnused().chars().filter(c -> c == '?').count()];
        Arrays.fill(ages, -unusedMillis);
        int deleted = 0;
        int batch;
        do {
            batch = update(sql.deleteUnused(), ages);
            deleted += batch;
        } while (batch == LockSql.DELETE_BATCH);
        return deleted;
    }

    /** Reads the table without reading a row: it fails if the database cannot be reached or the table is missing. */
    void probe() throws SQLException {
        connections.autoCommit(connection -> {
            try (PreparedStatement statement = prepare(connection, sql.probe())) {
                statement.executeQuery().close();
                return null;
            }
        });
    }

    /**
     * Takes the key as {@link #take} does, inside the caller's transaction, whose connection then holds the row's lock
     * until it ends: for a take that must happen together with other changes, such as a fair queue's.
     *
     * @return the new fencing token, or null when another owner holds the key
     */
    @Nullable
    Long takeWithin(Connection connection, String key, String owner, String holder, long leaseMillis)
            throws SQLException {
        Long token;
        if (dialect.upsertReturning()) {
            token = upsertToken(connection, key, owner, holder, leaseMillis);
        } else {
            token = takeOverWithin(connection, key, owner, holder, leaseMillis);
            if (token == null) {
                // A duplicate key fails the insert alone on MySQL, MariaDB and H2, whose rows another owner holds then.
                if (!insert(connection, key, owner, holder, leaseMillis)) {
                    return null;
                }
                token = sql.fencingFromClock() ? 0L : 1L;
            }
        }
        if (token == null || token != 0) {
            return token;
        }
        write(connection, sql.seedFromClock(), key, owner);
        return fencingOf(connection, key, owner);
    }

    private @Nullable Long upsert(Connection connection, String key, String owner, String holder, long leaseMillis)
            throws SQLException {
        Long token = upsertToken(connection, key, owner, holder, leaseMillis);
        return token != null && token == 0 ? seedFromClock(key, owner) : token;
    }

    /** The upsert's fencing token, 0 for a new row whose token comes from the clock, or null if the key is held. */
    private @Nullable Long upsertToken(Connection connection, String key, String owner, String holder, long leaseMillis)
            throws SQLException {
        try (PreparedStatement statement = prepare(connection, sql.upsert())) {
            int parameter = 1;
            statement.setString(parameter++, key);
            statement.setString(parameter++, owner);
            statement.setLong(parameter++, leaseMillis);
            if (sql.namesHolder()) {
                statement.setString(parameter++, holder);
            }
            statement.setLong(parameter, leaseMillis);
            try (ResultSet row = statement.executeQuery()) {
                return row.next() ? Long.valueOf(row.getLong(1)) : null;
            }
        }
    }

    /**
     * Takes over a released or expired row. The update and the read of the new token are one short transaction: the
     * update's row lock keeps the row this owner's until the token is read.
     */
    private @Nullable Long takeOver(String key, String owner, String holder, long leaseMillis) throws SQLException {
        return connections.transaction(connection -> takeOverWithin(connection, key, owner, holder, leaseMillis));
    }

    private @Nullable Long takeOverWithin(
            Connection connection, String key, String owner, String holder, long leaseMillis) throws SQLException {
        try (PreparedStatement update = prepare(connection, sql.takeOver())) {
            int parameter = 1;
            update.setString(parameter++, owner);
            update.setLong(parameter++, leaseMillis);
            if (sql.namesHolder()) {
                update.setString(parameter++, holder);
            }
            update.setString(parameter, key);
            if (update.executeUpdate() != 1) {
                return null;
            }
        }
        return fencingOf(connection, key, owner);
    }

    /** Reads the fencing token of the row that this transaction just wrote for the owner. */
    private long fencingOf(Connection connection, String key, String owner) throws SQLException {
        try (PreparedStatement read = prepare(connection, sql.fencingOf())) {
            read.setString(1, key);
            read.setString(2, owner);
            try (ResultSet row = read.executeQuery()) {
                if (!row.next()) {
                    throw new SQLException("the row just written for key '" + key + "' could not be read back");
                }
                return row.getLong(1);
            }
        }
    }

    /**
     * Inserts the key's first row, alone in its transaction so that two sessions inserting the same key never
     * deadlock: one inserts, the other gets a duplicate key.
     *
     * @return false if the row exists already
     */
    private boolean insert(Connection connection, String key, String owner, String holder, long leaseMillis)
            throws SQLException {
        try (PreparedStatement statement = prepare(connection, sql.insert())) {
            statement.setString(1, key);
            statement.setString(2, owner);
            statement.setLong(3, leaseMillis);
            if (sql.namesHolder()) {
                statement.setString(4, holder);
            }
            statement.executeUpdate();
            return true;
        } catch (SQLException e) {
            if (errors.isDuplicateKey(e)) {
                return false;
            }
            throw e;
        }
    }

    /**
     * Gives the row this owner just inserted its fencing token from the database's clock, in a statement of its own.
     * The insert cannot take it: its time may be read before it waits for another session's row with the same key,
     * which may be taken, released and deleted meanwhile with a later time, while this statement starts after the
     * insert ended.
     *
     * @return the token, or null if the owner lost the key already
     */
    private @Nullable Long seedFromClock(String key, String owner) throws SQLException {
        return connections.transaction(connection -> {
            try (PreparedStatement update = prepare(connection, sql.seedFromClock())) {
                update.setString(1, key);
                update.setString(2, owner);
                if (update.executeUpdate() != 1) {
                    return null;
                }
            }
            return fencingOf(connection, key, owner);
        });
    }

    /** Runs one statement that changes rows, with auto-commit on; how many rows it changed. */
    private int update(String statement, Object... parameters) throws SQLException {
        return connections.autoCommit(connection -> {
            try (PreparedStatement prepared = prepare(connection, statement, parameters)) {
                return prepared.executeUpdate();
            }
        });
    }

    /** Runs one query with auto-commit on; whether it found a row. */
    private boolean exists(String statement, Object... parameters) throws SQLException {
        return connections.autoCommit(connection -> {
            try (PreparedStatement prepared = prepare(connection, statement, parameters);
                    ResultSet row = prepared.executeQuery()) {
                return row.next();
            }
        });
    }

    /** The parameter list of an {@code IN} over {@code count} rows named one by one: {@code (?, ?, ...)}. */
    static String marks(int count) {
        StringJoiner marks = new StringJoiner(", ", "(", ")");
        for (int at = 0; at < count; at++) {
            marks.add("?");
        }
        return marks.toString();
    }

    /** The parameters of a statement whose {@code IN} over the named rows follows {@code first}. */
    static Object[] parameters(List<String> names, Object... first) {
        Object[] parameters = Arrays.copyOf(first, first.length + names.size());
        for (int at = 0; at < names.size(); at++) {
            parameters[first.length + at] = names.get(at);
        }
        return parameters;
    }

    /** Runs one statement that changes rows on the caller's connection, in its transaction; how many it changed. */
    int write(Connection connection, String statement, Object... parameters) throws SQLException {
        try (PreparedStatement prepared = prepare(connection, statement, parameters)) {
            return prepared.executeUpdate();
        }
    }

    /**
     * Prepares a statement with its parameters, each a key or token ({@code String}) or a number ({@code Long}), and the
     * store's query timeout; {@link PermitRows} prepares its statements so too.
     */
    PreparedStatement prepare(Connection connection, String statement, Object... parameters) throws SQLException {
        PreparedStatement prepared = prepare(connection, statement);
        try {
            for (int at = 0; at < parameters.length; at++) {
                if (parameters[at] instanceof Long number) {
                    prepared.setLong(at + 1, number);
                } else {
                    prepared.setString(at + 1, (String) parameters[at]);
                }
            }
        } catch (SQLException | RuntimeException e) {
            prepared.close();
            throw e;
        }
        return prepared;
    }

    private PreparedStatement prepare(Connection connection, String statement) throws SQLException {
        PreparedStatement prepared = connection.prepareStatement(statement);
        try {
            prepared.setQueryTimeout(queryTimeoutSeconds);
        } catch (SQLException | RuntimeException e) {
            prepared.close();
            throw e;
        }
        return prepared;
    }
}
