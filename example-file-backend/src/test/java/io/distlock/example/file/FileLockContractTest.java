package io.distlock.example.file;

import io.distlock.Lock;
import io.distlock.store.StoreLock;
import io.distlock.tck.contract.LockContract;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link LockContract} on {@link StoreLock} over {@link FileLeaseStore}: each client is a lock over a store of its own
 * on the same directory, as the processes of one machine would be. There is no outage to cause, so those cases are
 * skipped.
 */
class FileLockContractTest extends LockContract {

    @TempDir
    Path directory;

    private final List<StoreLock> clients = new ArrayList<>();

    @Override
    public Lock newClient() {
        // No grace period: tests leave keys held, and closing must not wait for them.
        StoreLock client = StoreLock.builder(new FileLeaseStore(directory))
                .shutdownGracePeriod(Duration.ZERO)
                .build();
        synchronized (clients) {
            clients.add(client);
        }
        return client;
    }

    /** The example's files keep the owner token only; a store of one's own names holders by {@code readLease}. */
    @Override
    public boolean namesHolders() {
        return false;
    }

    @Override
    public void removeBehindTheClientsBack(String key) {
        new FileLeaseStore(directory).removeHolder(key);
    }

    @AfterEach
    void closeClients() {
        synchronized (clients) {
            clients.forEach(StoreLock::close);
            clients.clear();
        }
    }
}
