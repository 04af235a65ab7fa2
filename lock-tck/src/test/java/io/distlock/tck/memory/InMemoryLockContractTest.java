package io.distlock.tck.memory;

import io.distlock.Lock;
import io.distlock.memory.InMemoryLeaseStore;
import io.distlock.store.StoreLock;
import io.distlock.tck.contract.LockContract;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;

/**
 * {@link LockContract} on {@link StoreLock} over one {@link InMemoryLeaseStore}: each client is its own lock over the
 * shared store, as clients of one server are. There is no outage to cause, so those cases are skipped.
 */
class InMemoryLockContractTest extends LockContract {

    private final InMemoryLeaseStore store = new InMemoryLeaseStore();
    private final List<StoreLock> clients = new ArrayList<>();

    @Override
    public Lock newClient() {
        // No grace period: tests leave keys held, and closing must not wait for them.
        StoreLock client =
                StoreLock.builder(store).shutdownGracePeriod(Duration.ZERO).build();
        synchronized (clients) {
            clients.add(client);
        }
        return client;
    }

    /** Removes the key from the shared store, which its holder learns only when it next asks. */
    @Override
    public void removeBehindTheClientsBack(String key) {
        if (!store.remove(key)) {
            throw new IllegalStateException("key '" + key + "' was not held");
        }
    }

    @AfterEach
    void closeClients() {
        synchronized (clients) {
            clients.forEach(StoreLock::close);
            clients.clear();
        }
    }
}
