package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.SQLException;
import javax.sql.DataSource;

/**
 * Runs each piece of work on its own connection from the data source, never on one bound to the caller's transaction,
 * so a caller's rollback never releases or un-takes a lock. The work runs with auto-commit on (or in one short
 * transaction of its own) at READ COMMITTED, and the connection gets its former settings back before it returns to a
 * pool.
 */
final class Connections {

    /** Work on a connection. */
    @FunctionalInterface
    interface Work<T> {
        T run(Connection connection) throws SQLException;
    }

    @FunctionalInterface
    private interface SqlCall<T> {
        T call() throws SQLException;
    }

    /**
     * How often work runs in all when the database ends it as the victim of a deadlock. A victim's transaction is rolled
     * back whole, so it had no effect and runs again as it was; deadlocks arise between the clean-up of unused rows and
     * grants of the same keys.
     */
    private static final int DEADLOCK_ATTEMPTS = 3;

    private final DataSource dataSource;

    Connections(DataSource dataSource) {
        this.dataSource = dataSource;
    }

    /** Runs the work with auto-commit on: each statement is a transaction of its own. */
    <T> T autoCommit(Work<T> work) throws SQLException {
        return uninterrupted(() -> againAfterDeadlock(() -> inAutoCommit(work)));
    }

    /** Runs the work in one transaction, committed when the work returns and rolled back when it throws. */
    <T> T transaction(Work<T> work) throws SQLException {
        return uninterrupted(() -> againAfterDeadlock(() -> inTransaction(work)));
    }

    /**
     * Runs the work in one transaction, and once more if it failed on a duplicate key: another session inserted a row
     * that this one had read as missing, and the second run finds that row and locks it.
     */
    <T> T transactionAgainAfterDuplicateKey(StoreErrors errors, Work<T> work) throws SQLException {
        try {
            return transaction(work);
        } catch (SQLException e) {
            if (!errors.isDuplicateKey(e)) {
                throw e;
            }
            return transaction(work);
        }
    }

    private static <T> T againAfterDeadlock(SqlCall<T> call) throws SQLException {
        for (int attempt = 1; ; attempt++) {
            try {
                return call.call();
            } catch (SQLException e) {
                if (attempt == DEADLOCK_ATTEMPTS || !isDeadlock(e)) {
                    throw e;
                }
            }
        }
    }

    /** SQLState 40001, a serialization failure (MySQL, MariaDB and H2 report deadlocks so), or PostgreSQL's 40P01. */
    private static boolean isDeadlock(SQLException e) {
        return "40001".equals(e.getSQLState()) || "40P01".equals(e.getSQLState());
    }

    /**
     * Runs a call with the thread's interrupt status cleared and sets it again afterwards: a pool or driver that gives
     * up on an interrupted thread must not stop an interrupted holder from releasing or extending its lock.
     */
    private static <T> T uninterrupted(SqlCall<T> call) throws SQLException {
        boolean interrupted = Thread.interrupted();
        try {
            return call.call();
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private <T> T inAutoCommit(Work<T> work) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            Settings former = Settings.prepare(connection, true);
            T result;
            try {
                result = work.run(connection);
            } catch (SQLException | RuntimeException e) {
                former.restoreAfter(connection, e);
                throw e;
            }
            former.restore(connection);
            return result;
        }
    }

    private <T> T inTransaction(Work<T> work) throws SQLException {
        try (Connection connection = dataSource.getConnection()) {
            Settings former = Settings.prepare(connection, false);
            T result;
            try {
                result = work.run(connection);
                connection.commit();
            } catch (SQLException | RuntimeException e) {
                rollBack(connection, e);
                former.restoreAfter(connection, e);
                throw e;
            }
            former.restore(connection);
            return result;
        }
    }

    private static void rollBack(Connection connection, Exception failure) {
        try {
            connection.rollback();
        } catch (SQLException e) {
            failure.addSuppressed(e);
        }
    }

    /**
     * A connection's auto-commit and isolation as the pool handed it out. READ COMMITTED because a row that another
     * session just changed must be re-read, not refused: at REPEATABLE READ or SERIALIZABLE, PostgreSQL fails a
     * concurrent take-over with a serialization error.
     */
    private record Settings(boolean autoCommit, int isolation) {

        static Settings prepare(Connection connection, boolean autoCommit) throws SQLException {
            Settings former = new Settings(connection.getAutoCommit(), connection.getTransactionIsolation());
            if (former.isolation != Connection.TRANSACTION_READ_COMMITTED) {
                if (!former.autoCommit) {
                    // The isolation of a transaction in progress cannot change; a pooled connection has none open.
                    connection.rollback();
                }
                connection.setTransactionIsolation(Connection.TRANSACTION_READ_COMMITTED);
            }
            if (former.autoCommit != autoCommit) {
                connection.setAutoCommit(autoCommit);
            }
            return former;
        }

        void restore(Connection connection) throws SQLException {
            if (connection.getAutoCommit() != autoCommit) {
                connection.setAutoCommit(autoCommit);
            }
            if (isolation != Connection.TRANSACTION_READ_COMMITTED) {
                connection.setTransactionIsolation(isolation);
            }
        }

        /** Restores after a failure, which stays the exception that the caller sees. */
        void restoreAfter(Connection connection, Exception failure) {
            try {
                restore(connection);
            } catch (SQLException e) {
                failure.addSuppressed(e);
            }
        }
    }
}
