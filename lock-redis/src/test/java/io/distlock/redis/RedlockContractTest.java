package io.distlock.redis;

import io.distlock.Lock;
import io.distlock.redis.internal.scripts.RedisKeys;
import io.distlock.tck.contract.LockContract;
import io.distlock.tck.contract.StoreOutage;
import io.distlock.test.redis.TestRedis;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/** The whole lock contract on a Redlock over three independent Redis servers. */
class RedlockContractTest extends LockContract {

    private static List<TestRedis> servers;

    private final RedlockClients clients = new RedlockClients(servers);

    @BeforeAll
    static void startServers() {
        servers = RedlockClients.startServers(3);
    }

    @AfterAll
    static void stopServers() {
        servers.forEach(TestRedis::close);
    }

    @Override
    public Lock newClient() {
        return clients.lock();
    }

    /** Deletes the lock's Redis key on every node, as an operator's {@code DEL} would. */
    @Override
    public void removeBehindTheClientsBack(String key) {
        String lockKey = new RedisKeys("distlock:").lockKey(key);
        servers.forEach(server -> server.command("DEL", lockKey));
    }

    /** The outage pauses all three servers: no node can vote. */
    @Override
    public StoreOutage storeOutage() {
        return ContractOutages.paused(servers, newClient(), () -> {});
    }

    @AfterEach
    void closeClients() throws Exception {
        clients.close();
    }
}
