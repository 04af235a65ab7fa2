package io.distlock.bench.contender;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

/** The connection pool each worker JVM of a JDBC contender opens to the run's database, the same for every one. */
final class JdbcPools {

    private JdbcPools() {}

    /**
     * Opens a pool of the PostgreSQL driver's plain connections, all of them at once so that no trial pays for opening
     * one.
     *
     * @param database the JDBC URL and the pool's size
     * @param name the pool's name, for its threads
     * @return the pool; close it when done
     */
    static HikariDataSource open(BackendEndpoint database, String name) {
        HikariConfig config = new HikariConfig();
        config.setJdbcUrl(database.address());
        config.setMaximumPoolSize(database.connections());
        config.setMinimumIdle(database.connections());
        config.setPoolName(name);
        return new HikariDataSource(config);
    }
}
