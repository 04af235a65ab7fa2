package io.distlock.jdbc;

import io.distlock.LockBackendException;
import java.sql.SQLException;
import java.util.Set;
import org.springframework.dao.DataAccessException;
import org.springframework.dao.DuplicateKeyException;
import org.springframework.jdbc.UncategorizedSQLException;
import org.springframework.jdbc.support.SQLErrorCodeSQLExceptionTranslator;
import org.springframework.jdbc.support.SQLExceptionTranslator;

/**
 * Turns the database's errors into {@link LockBackendException}s that name the key and the operation, whose cause is
 * the error as Spring's SQL error translation classifies it: a {@link DataAccessException} subclass such as {@link
 * org.springframework.dao.QueryTimeoutException}, {@link org.springframework.dao.DataAccessResourceFailureException}
 * or {@link org.springframework.jdbc.BadSqlGrammarException}, by the database's error codes and then by the JDBC
 * driver's exception classes and SQLStates, with the driver's {@link SQLException} as its cause. A missing lock table
 * gets a message that says how to create it.
 */
final class StoreErrors {

    /**
     * "Table not found": PostgreSQL's undefined_table, MySQL's and MariaDB's ER_NO_SUCH_TABLE, and H2's three variants
     * (not found, not found with candidates, not found in an empty database). Spring translates them all to {@link
     * org.springframework.jdbc.BadSqlGrammarException}, like any other bad statement, so they are told apart here, only
     * to say how to create the table.
     */
    private static final Set<String> MISSING_TABLE = Set.of("42P01", "42S02", "42S03", "42S04");

    /** The SQLStates of a column that does not exist: PostgreSQL's, MySQL's and MariaDB's, H2's. */
    private static final Set<String> MISSING_COLUMN = Set.of("42703", "42S22", "42122");

    private final String description;
    private final Dialect dialect;
    private final String table;
    private final SQLExceptionTranslator translator;

    /**
     * @param productName the database's product name, as its driver reports it, which chooses the error codes that
     *     Spring's translation knows for it
     */
    StoreErrors(String description, Dialect dialect, String table, String productName) {
        this.description = description;
        this.dialect = dialect;
        this.table = table;
        this.translator = new SQLErrorCodeSQLExceptionTranslator(productName);
    }

    /** The exception for a failed operation on a key, such as "acquire" or "release". */
    LockBackendException of(String operation, String key, SQLException e) {
        return failed(key, operation + " '" + key + "'", e);
    }

    /** The exception for a failed operation on the whole table, with an empty key. */
    LockBackendException ofTable(String operation, SQLException e) {
        return failed("", operation, e);
    }

    /** The error as Spring's SQL error translation classifies it; never null. */
    DataAccessException translate(String what, SQLException e) {
        DataAccessException translated = translator.translate(description + ": " + what, null, e);
        return translated != null ? translated : new UncategorizedSQLException(description + ": " + what, null, e);
    }

    /** A unique-key violation, as Spring's translation classifies it (PostgreSQL's and H2's 23505, MySQL's 1062). */
    boolean isDuplicateKey(SQLException e) {
        return translate("insert", e) instanceof DuplicateKeyException;
    }

    private LockBackendException failed(String key, String what, SQLException e) {
        DataAccessException translated = translate(what, e);
        if (isMissingTable(e)) {
            return new LockBackendException(key, missingTable() + " (while trying to " + what + ")", translated);
        }
        return new LockBackendException(
                key,
                description + " could not " + what + ": " + e.getMessage() + " [SQLState " + e.getSQLState() + "]",
                translated);
    }

    /** What to do about a missing table, naming the table, the schema script and the builder option. */
    String missingTable() {
        return "the lock table '" + table + "' does not exist (" + description + "). Create it with the script "
                + dialect.schemaResource() + " from the lock-jdbc jar"
                + (table.equals(JdbcLeaseStore.DEFAULT_TABLE) ? "" : ", with its table name changed to '" + table + "'")
                + ", or build the store with JdbcLeaseStore.builder(dataSource).createTableIfMissing(true)";
    }

    static boolean isMissingTable(SQLException e) {
        return hasState(e, MISSING_TABLE);
    }

    static boolean isMissingColumn(SQLException e) {
        return hasState(e, MISSING_COLUMN);
    }

    private static boolean hasState(SQLException e, Set<String> states) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SQLException sql && states.contains(sql.getSQLState())) {
                return true;
            }
        }
        return false;
    }
}
