package io.distlock.jdbc;

import io.distlock.Lock;
import io.distlock.store.StoreLock;
import io.distlock.test.contract.LockContract;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;

/**
 * {@link LockContract} on {@link StoreLock} over {@link JdbcLeaseStore}: each client is its own store on its own data
 * source, standing for another process, and is closed after the test.
 */
abstract class JdbcLockContracts extends LockContract {

    private final List<AutoCloseable> opened = new ArrayList<>();

    /** A new data source of the database under test, its own connections; registered with {@link #closeAfter}. */
    abstract DataSource newDataSource();

    @Override
    public Lock newClient() {
        // No grace period: tests leave keys held, and closing must not wait for them.
        StoreLock lock = StoreLock.builder(JdbcLeaseStore.builder(newDataSource())
                        .createTableIfMissing(true)
                        .build())
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
