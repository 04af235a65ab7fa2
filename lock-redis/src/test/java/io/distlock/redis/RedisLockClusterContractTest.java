package io.distlock.redis;

import io.distlock.Lock;
import io.distlock.test.TestRedisCluster;
import io.distlock.test.contract.LockContract;
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

    @AfterEach
    void closeClients() throws Exception {
        clients.close();
    }
}
