package io.distlock.redis;

import io.distlock.Lock;
import io.distlock.redis.internal.path.TreePath;
import io.distlock.tck.contract.LockContract;
import io.distlock.tck.contract.StoreOutage;
import io.distlock.test.redis.TestRedis;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;

/** The path lock keeps every promise of a lock, with each contract key a path of one segment in a shared tree. */
class PathLockContractTest extends LockContract {

    private final RedisClients clients = new RedisClients(TestRedis.shared());
    private final ContractOutages outages = new ContractOutages();
    private final String tree = "contract-tree:" + UUID.randomUUID();

    @Override
    public Lock newClient() {
        return clients.lock().tree(tree);
    }

    /** A path's holder is stored by its token alone: inspection tells keys, not paths, apart. */
    @Override
    public boolean namesHolders() {
        return false;
    }

    /** Deletes the Redis key that holds the path's holder, as an operator's {@code DEL} would. */
    @Override
    public void removeBehindTheClientsBack(String key) {
        clients.template().delete(TreePath.parse("distlock:", tree, key).holderKey());
    }

    /** The outage pauses a proxy between one client and the shared server. */
    @Override
    public StoreOutage storeOutage() {
        return outages.proxied(
                TestRedis.shared(), outageClients -> outageClients.lock().tree(tree));
    }

    @AfterEach
    void closeClients() throws Exception {
        outages.close();
        clients.close();
    }
}
