package io.distlock.jdbc;

import io.distlock.LockBackendException;
import java.sql.SQLException;
import java.util.Set;

/**
 * Turns the database's errors into {@link LockBackendException}s that name the key and the operation, and a missing
 * lock table into a message that says how to create it.
 */
final class StoreErrors {

    /**
     * "Table not found": PostgreSQL's undefined_table, MySQL's and MariaDB's ER_NO_SUCH_TABLE, and H2's three variants
     * (not found, not found with candidates, not found in an empty database).
     */
    private static final Set<String> MISSING_TABLE = Set.of("42P01", "42S02", "42S03", "42S04");

    private static final int MYSQL_DUPLICATE_ENTRY = 1062;

    private final String description;
    private final Dialect dialect;
    private final String table;

    StoreErrors(String description, Dialect dialect, String table) {
        this.description = description;
        this.dialect = dialect;
        this.table = table;
    }

    /** The exception for a failed operation on a key, such as "acquire" or "release". */
    LockBackendException of(String operation, String key, SQLException e) {
        return failed(key, operation + " '" + key + "'", e);
    }

    /** The exception for a failed operation on the whole table, with an empty key. */
    LockBackendException ofTable(String operation, SQLException e) {
        return failed("", operation, e);
    }

    private LockBackendException failed(String key, String what, SQLException e) {
        if (isMissingTable(e)) {
            return new LockBackendException(key, missingTable() + " (while trying to " + what + ")", e);
        }
        return new LockBackendException(
                key,
                description + " could not " + what + ": " + e.getMessage() + " [SQLState " + e.getSQLState() + "]",
                e);
    }

    /** What to do about a missing table, naming the table, the schema script and the builder option. */
    String missingTable() {
        return "the lock table '" + table + "' does not exist (" + description + "). Create it with the script "
                + dialect.schemaResource() + " from the lock-jdbc jar"
                + (table.equals(JdbcLeaseStore.DEFAULT_TABLE) ? "" : ", with its table name changed to '" + table + "'")
                + ", or build the store with JdbcLeaseStore.builder(dataSource).createTableIfMissing(true)";
    }

    static boolean isMissingTable(SQLException e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && MISSING_TABLE.contains(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }

    /** A unique-key violation: SQLState 23505 (PostgreSQL, H2), or 23000 with MySQL's and MariaDB's code 1062. */
    static boolean isDuplicateKey(SQLException e) {
        return "23505".equals(e.getSQLState())
                || ("23000".equals(e.getSQLState()) && e.getErrorCode() == MYSQL_DUPLICATE_ENTRY);
    }
}
