package io.distlock.redis;

import io.distlock.Lock;
import io.distlock.test.TestRedis;
import io.distlock.test.contract.LockContract;
import org.junit.jupiter.api.AfterEach;

class RedisLockContractTest extends LockContract {

    private final RedisClients clients = new RedisClients(TestRedis.shared());

    @Override
    public Lock newClient() {
        return clients.lock();
    }

    @AfterEach
    void closeClients() throws Exception {
        clients.close();
    }
}
