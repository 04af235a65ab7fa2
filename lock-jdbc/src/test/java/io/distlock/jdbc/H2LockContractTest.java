package io.distlock.jdbc;

import java.sql.SQLException;
import java.time.Duration;
import java.util.UUID;
import javax.sql.DataSource;
import org.h2.tools.Server;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;

/**
 * {@link io.distlock.tck.contract.LockContract} on an in-memory H2 database; each client opens its own sessions. For
 * a store outage, the same database is served over H2's TCP server, with a proxy in front of it.
 */
class H2LockContractTest extends JdbcLockContracts {

    private static final String NAME = "distlock-" + UUID.randomUUID();

    private static Server tcpServer;

    @BeforeAll
    static void createDatabase() throws SQLException {
        tcpServer = Server.createTcpServer("-tcpPort", "0", "-ifNotExists").start();
    }

    @AfterAll
    static void stopServer() {
        tcpServer.stop();
    }

    @Override
    DataSource newDataSource() {
        return TestH2.dataSource("jdbc:h2:mem:" + NAME + ";DB_CLOSE_DELAY=-1");
    }

    @Override
    String serverHost() {
        return "127.0.0.1";
    }

    @Override
    int serverPort() {
        return tcpServer.getPort();
    }

    @Override
    DataSource dataSourceThrough(int port, Duration timeout) {
        return TestH2.dataSource("jdbc:h2:tcp://127.0.0.1:" + port + "/mem:" + NAME + ";DB_CLOSE_DELAY=-1");
    }
}
