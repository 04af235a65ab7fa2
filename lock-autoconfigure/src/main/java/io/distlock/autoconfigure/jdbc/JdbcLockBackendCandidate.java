package io.distlock.autoconfigure.jdbc;

import io.distlock.autoconfigure.LockBackendCandidate;

/**
 * A relational database, for the backend choice: present when lock-jdbc is on the class path and the application has
 * a {@code DataSource} bean.
 */
final class JdbcLockBackendCandidate implements LockBackendCandidate {

    @Override
    public String id() {
        return "jdbc";
    }

    @Override
    public String module() {
        return "lock-jdbc";
    }

    // By name: this class is loaded also when lock-jdbc is missing.
    @Override
    public String moduleClass() {
        return "io.distlock.jdbc.JdbcLeaseStore";
    }

    @Override
    public String starter() {
        return "io.distlock:lock-jdbc-spring-boot-starter";
    }

    @Override
    public String connectionType() {
        return "javax.sql.DataSource";
    }

    @Override
    public String configuration() {
        return "io.distlock.autoconfigure.jdbc.JdbcLockConfiguration";
    }
}
