package io.distlock.redis;

import io.distlock.Lock;
import io.distlock.test.TestRedis;
import io.distlock.test.contract.LockContract;
import org.junit.jupiter.api.AfterEach;

/** The fair lock keeps every promise of a lock. */
class FairLockContractTest extends LockContract {

    private final RedisClients clients = new RedisClients(TestRedis.shared());

    @Override
    public Lock newClient() {
        return clients.lock().fair();
    }

    @AfterEach
    void closeClients() throws Exception {
        clients.close();
    }
}
