package io.distlock.jdbc;

import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;

/** In-memory H2 databases, kept open between connections until the JVM ends; a unique name per test class. */
final class TestH2 {

    private TestH2() {}

    static String newUrl() {
        return "jdbc:h2:mem:distlock-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1";
    }

    static DataSource newDatabase() {
        return dataSource(newUrl());
    }

    /** A data source that opens a new session of the database for each connection. */
    static DataSource dataSource(String url) {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL(url);
        return dataSource;
    }
}
