package io.distlock.jdbc;

import java.util.UUID;
import javax.sql.DataSource;
import org.h2.jdbcx.JdbcDataSource;

/** An in-memory H2 database per test class, kept open between connections until the JVM ends. */
final class TestH2 {

    private TestH2() {}

    static DataSource newDatabase() {
        JdbcDataSource dataSource = new JdbcDataSource();
        dataSource.setURL("jdbc:h2:mem:distlock-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        return dataSource;
    }
}
