package io.distlock.redis;

import io.distlock.Lock;
import io.distlock.test.TestRedis;
import io.distlock.test.contract.LockContract;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;

/** The path lock keeps every promise of a lock, with each contract key a path of one segment in a shared tree. */
class PathLockContractTest extends LockContract {

    private final RedisClients clients = new RedisClients(TestRedis.shared());
    private final String tree = "contract-tree:" + UUID.randomUUID();

    @Override
    public Lock newClient() {
        return clients.lock().tree(tree);
    }

    @AfterEach
    void closeClients() throws Exception {
        clients.close();
    }
}
