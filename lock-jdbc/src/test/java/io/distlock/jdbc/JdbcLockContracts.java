package io.distlock.jdbc;

import io.distlock.Lock;
import io.distlock.store.StoreLock;
import io.distlock.tck.contract.LockContract;
import io.distlock.tck.contract.StoreOutage;
import io.distlock.tck.net.TcpProxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;

/**
 * {@link LockContract} on {@link StoreLock} over {@link JdbcLeaseStore}: each client is its own store on its own data
 * source, standing for another process, and is closed after the test. A store outage is a paused proxy in front of
 * the database server.
 */
abstract class JdbcLockContracts extends LockContract {

    /** How long the client that an outage cuts off waits for one answer of the database. */
    static final Duration OUTAGE_CALL_TIMEOUT = Duration.ofSeconds(2);

    private final List<AutoCloseable> opened = new ArrayList<>();
    private DataSource queueReader;

    /** A new data source of the database under test, its own connections; registered with {@link #closeAfter}. */
    abstract DataSource newDataSource();

    /** The database server's host, for a proxy in front of it. */
    abstract String serverHost();

    /** The database server's port, for a proxy in front of it. */
    abstract int serverPort();

    /**
     * A new data source of the same database whose connections go to {@code 127.0.0.1:port}, a proxy in front of the
     * server, and give up on a connection after {@code timeout}; registered with {@link #closeAfter}.
     */
    abstract DataSource dataSourceThrough(int port, Duration timeout);

    @Override
    public Lock newClient() {
        return seenAs(client(JdbcLeaseStore.builder(newDataSource())));
    }

    /** What the suite runs on, for each client: the store's lock itself, or a kind of lock it offers. */
    Lock seenAs(StoreLock client) {
        return client;
    }

    /** The key's ticket rows, which its fair lock's waiters hold ({@link FairRows}). */
    @Override
    public OptionalInt waitingInFairQueue(String key) throws Exception {
        if (queueReader == null) {
            queueReader = newDataSource();
        }
        try (Connection connection = queueReader.getConnection();
                PreparedStatement count = connection.prepareStatement("SELECT COUNT(*) FROM "
                        + JdbcLeaseStore.DEFAULT_TABLE + " WHERE lock_key LIKE ? AND owner_token IS NOT NULL")) {
            count.setString(1, FairRows.ticket(key, 0).replaceAll("0$", "") + "%");
            try (ResultSet rows = count.executeQuery()) {
                rows.next();
                return OptionalInt.of(rows.getInt(1));
            }
        }
    }

    /** Deletes the key's row, as an operator's cleanup would: its holder is not told. */
    @Override
    public void removeBehindTheClientsBack(String key) throws Exception {
        try (Connection connection = newDataSource().getConnection();
                PreparedStatement delete = connection.prepareStatement(
                        "DELETE FROM " + JdbcLeaseStore.DEFAULT_TABLE + " WHERE lock_key = ?")) {
            delete.setString(1, key);
            if (delete.executeUpdate() != 1) {
                throw new IllegalStateException("no row of key '" + key + "' to delete");
            }
        }
    }

    /** The outage pauses a proxy between the client and the server: connections stay open, nothing gets through. */
    @Override
    public StoreOutage storeOutage() {
        TcpProxy proxy = TcpProxy.start(serverHost(), serverPort());
        // Closed after the test, not with the outage: requests held back in the proxy must still reach the server.
        closeAfter(proxy);
        Lock client = seenAs(client(JdbcLeaseStore.builder(dataSourceThrough(proxy.port(), OUTAGE_CALL_TIMEOUT))
                .callTimeout(OUTAGE_CALL_TIMEOUT)));
        return new StoreOutage() {
            @Override
            public Lock client() {
                return client;
            }

            @Override
            public void begin() {
                proxy.pause();
            }

            @Override
            public Duration callTimeout() {
                return OUTAGE_CALL_TIMEOUT;
            }

            @Override
            public void close() {
                proxy.resume();
            }
        };
    }

    private StoreLock client(JdbcLeaseStoreBuilder store) {
        // No grace period: tests leave keys held, and closing must not wait for them.
        StoreLock lock = StoreLock.builder(store.createTableIfMissing(true).build())
                .shutdownGracePeriod(Duration.ZERO)
                .build();
        closeAfter(lock);
        return lock;
    }

    void closeAfter(AutoCloseable resource) {
        synchronized (opened) {
            opened.add(resource);
        }
    }

    @AfterEach
    void closeClients() throws Exception {
        List<AutoCloseable> toClose;
        synchronized (opened) {
            toClose = new ArrayList<>(opened);
            opened.clear();
        }
        // Locks first, then their data sources: the lock gives back what it holds through its data source.
        for (int i = toClose.size() - 1; i >= 0; i--) {
            toClose.get(i).close();
        }
    }
}
