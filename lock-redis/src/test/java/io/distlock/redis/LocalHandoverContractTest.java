package io.distlock.redis;

import io.distlock.Lock;
import io.distlock.redis.internal.scripts.RedisKeys;
import io.distlock.tck.contract.LockContract;
import io.distlock.tck.contract.StoreOutage;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;

/** The lock with local handover keeps every promise of a lock. */
class LocalHandoverContractTest extends LockContract {

    /** Shorter than most of the contract's leases, longer than most of its sections. */
    private static final Duration WINDOW = Duration.ofMillis(200);

    private final RedisClients clients = new RedisClients(TestRedis.shared());
    private final ContractOutages outages = new ContractOutages();

    @Override
    public Lock newClient() {
        return clients.lock(settings -> settings.localHandoverWindow(WINDOW));
    }

    /** Deletes the lock's Redis key, as an operator's {@code DEL} would. */
    @Override
    public void removeBehindTheClientsBack(String key) {
        clients.template().delete(new RedisKeys("distlock:").lockKey(key));
    }

    /** The outage pauses a proxy between one client and the shared server. */
    @Override
    public StoreOutage storeOutage() {
        return outages.proxied(
                TestRedis.shared(),
                outageClients -> outageClients.lock(settings -> settings.localHandoverWindow(WINDOW)));
    }

    @AfterEach
    void closeClients() throws Exception {
        outages.close();
        clients.close();
    }
}
