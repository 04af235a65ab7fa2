package io.distlock.zookeeper;

import io.distlock.Lock;
import io.distlock.internal.path.PathRules;
import io.distlock.store.StoreLock;
import java.util.List;
import java.util.UUID;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;

/**
 * {@link io.distlock.tck.contract.LockContract} on the path lock of one tree, each contract key a path of one segment in
 * a tree that all clients share: the tree's lock keeps every promise of a lock on the same ensemble as the keys do.
 */
class ZooKeeperPathLockContractTest extends ZooKeeperLockContractTest {

    private final String tree = "contract-tree:" + UUID.randomUUID();

    @Override
    Lock seenAs(StoreLock client) {
        return client.tree(tree);
    }

    /** Deletes the path's nodes under the tree's node, the holder's among them, as an operator would. */
    @Override
    void removeHolder(CuratorFramework operator, String key) throws Exception {
        String treeNode = PathNodes.treePath(ZooKeeperLeaseStore.DEFAULT_BASE_PATH, tree);
        List<String> path = PathRules.parse(key);
        for (String node : operator.getChildren().forPath(treeNode)) {
            if (path.equals(PathNodes.segments(node))) {
                operator.delete().forPath(ZKPaths.makePath(treeNode, node));
            }
        }
    }
}
