package io.distlock.jdbc;

import io.distlock.Lock;
import io.distlock.store.StoreLock;
import java.util.List;
import java.util.UUID;

/**
 * {@link io.distlock.tck.contract.LockContract} on the path lock of one tree, each contract key a path of one segment in
 * a tree that all clients share: the tree's lock keeps every promise of a lock on the same database as the keys do.
 */
class MariaDbPathLockContractTest extends MariaDbLockContractTest {

    private final String tree = "contract-tree:" + UUID.randomUUID();

    @Override
    Lock seenAs(StoreLock client) {
        return client.tree(tree);
    }

    /** Deletes the path's holder row, as an operator's cleanup would: its holder is not told. */
    @Override
    public void removeBehindTheClientsBack(String key) throws Exception {
        super.removeBehindTheClientsBack(PathRows.holderRow(tree, List.of(key)));
    }
}
