package io.distlock.redis;

import io.distlock.Lock;
import io.distlock.tck.contract.LockContract;
import io.distlock.tck.contract.StoreOutage;
import io.distlock.test.redis.TestRedis;
import org.junit.jupiter.api.AfterEach;

class RedisLockContractTest extends LockContract {

    private final RedisClients clients = new RedisClients(TestRedis.shared());
    private final ContractOutages outages = new ContractOutages();

    @Override
    public Lock newClient() {
        return clients.lock();
    }

    /** The outage pauses a proxy between one client and the shared server. */
    @Override
    public StoreOutage storeOutage() {
        return outages.proxied(TestRedis.shared(), outageClients -> outageClients.lock());
    }

    @AfterEach
    void closeClients() throws Exception {
        outages.close();
        clients.close();
    }
}
