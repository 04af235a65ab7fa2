package io.distlock.tck.memory;

import io.distlock.Lock;
import io.distlock.memory.InMemoryLeaseStore;
import io.distlock.store.StoreLock;
import io.distlock.tck.contract.LockContract;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;

/**
 * {@link LockContract} on the path lock of one tree of an {@link InMemoryLeaseStore}: every contract key is a path of
 * one segment in a tree that all clients share, so the tree's lock keeps every promise of a lock. There is no outage to
 * cause, so those cases are skipped.
 */
class InMemoryPathLockContractTest extends LockContract {

    private final InMemoryLeaseStore store = new InMemoryLeaseStore();
    private final List<StoreLock> clients = new ArrayList<>();
    private final String tree = "contract-tree:" + UUID.randomUUID();

    @Override
    public Lock newClient() {
        // No grace period: tests leave paths held, and closing must not wait for them.
        StoreLock client =
                StoreLock.builder(store).shutdownGracePeriod(Duration.ZERO).build();
        synchronized (clients) {
            clients.add(client);
        }
        return client.tree(tree);
    }

    @AfterEach
    void closeClients() {
        synchronized (clients) {
            clients.forEach(StoreLock::close);
            clients.clear();
        }
    }
}
