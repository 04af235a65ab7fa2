package io.distlock.redis;

import io.distlock.Lock;
import io.distlock.redis.internal.scripts.RedisKeys;
import io.distlock.tck.contract.LockContract;
import io.distlock.tck.contract.StoreOutage;
import io.distlock.test.redis.TestRedis;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;

class RedisLockContractTest extends LockContract {

    private final RedisClients clients = new RedisClients(TestRedis.shared());
    private final ContractOutages outages = new ContractOutages();

    @Override
    public Lock newClient() {
        return clients.lock();
    }

    /** Deletes the lock's Redis key, as an operator's {@code DEL} would. */
    @Override
    public void removeBehindTheClientsBack(String key) {
        clients.template().delete(new RedisKeys("distlock:").lockKey(key));
    }

    /** The tickets in the key's fair queue, a sorted set beside the lock's key. */
    @Override
    public OptionalInt waitingInFairQueue(String key) {
        Long tickets = clients.template().opsForZSet().zCard(new RedisKeys("distlock:").lockKey(key) + ":queue");
        return OptionalInt.of(tickets == null ? 0 : tickets.intValue());
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
