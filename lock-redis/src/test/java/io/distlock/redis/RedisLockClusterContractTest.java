package io.distlock.redis;

import io.distlock.Lock;
import io.distlock.redis.internal.scripts.RedisKeys;
import io.distlock.tck.contract.LockContract;
import io.distlock.tck.contract.StoreOutage;
import io.distlock.test.redis.TestRedisCluster;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;

/** The whole lock contract on a Redis Cluster of three masters, with keys spread over all of them. */
class RedisLockClusterContractTest extends LockContract {

    private static TestRedisCluster cluster;

    private final RedisClients clients = new RedisClients(cluster);

    @BeforeAll
    static void startCluster() {
        cluster = TestRedisCluster.start();
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @Override
    public Lock newClient() {
        return clients.lock();
    }

    /** Deletes the lock's Redis key, as an operator's {@code DEL} would. */
    @Override
    public void removeBehindTheClientsBack(String key) {
        clients.template().delete(new RedisKeys("distlock:").lockKey(key));
    }

    /** The outage pauses every node of the class's cluster, and waits for it to be healthy once they run again. */
    @Override
    public StoreOutage storeOutage() {
        return ContractOutages.paused(cluster.nodes(), newClient(), () -> cluster.awaitHealthy(Duration.ofSeconds(30)));
    }

    @AfterEach
    void closeClients() throws Exception {
        clients.close();
    }
}
