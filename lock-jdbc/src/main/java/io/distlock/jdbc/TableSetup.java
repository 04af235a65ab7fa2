package io.distlock.jdbc;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/** Checks that the lock table exists and, when asked to, creates it from the schema script shipped in the jar. */
final class TableSetup {

    private final Connections connections;
    private final Dialect dialect;
    private final LockSql sql;
    private final String table;

    TableSetup(Connections connections, Dialect dialect, LockSql sql, String table) {
        this.connections = connections;
        this.dialect = dialect;
        this.sql = sql;
        this.table = table;
    }

    /** True if the lock table can be read. */
    boolean exists() throws SQLException {
        try {
            return connections.autoCommit(connection -> {
                try (Statement statement = connection.createStatement()) {
                    statement.executeQuery(sql.probe()).close();
                    return true;
                }
            });
        } catch (SQLException e) {
            if (StoreErrors.isMissingTable(e)) {
                return false;
            }
            throw e;
        }
    }

    /**
     * True if the table, which exists, has the holder's columns, {@code locked_by} and {@code locked_at}.
     *
     * @throws SQLException if the database could not be asked, for any other reason than a missing column
     */
    boolean hasHolderColumns() throws SQLException {
        try {
            return connections.autoCommit(connection -> {
                try (Statement statement = connection.createStatement()) {
                    statement.executeQuery(LockSql.holderColumnsProbe(table)).close();
                    return true;
                }
            });
        } catch (SQLException e) {
            if (StoreErrors.isMissingColumn(e)) {
                return false;
            }
            throw e;
        }
    }

    /** Creates the table unless it exists; another process creating it at the same time is no error. */
    void createIfMissing() throws SQLException {
        if (exists()) {
            return;
        }
        try {
            connections.autoCommit(connection -> {
                try (Statement statement = connection.createStatement()) {
                    for (String ddl : statements()) {
                        statement.execute(ddl);
                    }
                }
                return null;
            });
        } catch (SQLException e) {
            // PostgreSQL's CREATE TABLE IF NOT EXISTS can still fail on a catalog unique key when two sessions race.
            if (!exists()) {
                throw e;
            }
        }
    }

    /** The script's statements, with the table's name put in. */
    List<String> statements() {
        List<String> statements = new ArrayList<>();
        StringBuilder current = new StringBuilder();
        for (String line : script().split("\n", -1)) {
            if (line.strip().startsWith("--")) {
                continue;
            }
            current.append(line).append('\n');
            if (line.strip().endsWith(";")) {
                String ddl = current.toString().strip();
                statements.add(
                        ddl.substring(0, ddl.length() - 1).replace(JdbcLeaseStore.DEFAULT_TABLE + " (", table + " ("));
                current.setLength(0);
            }
        }
        return statements;
    }

    private String script() {
        try (InputStream in = Objects.requireNonNull(
                TableSetup.class.getClassLoader().getResourceAsStream(dialect.schemaResource()),
                dialect.schemaResource())) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("could not read " + dialect.schemaResource(), e);
        }
    }
}
