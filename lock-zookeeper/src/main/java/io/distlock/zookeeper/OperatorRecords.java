package io.distlock.zookeeper;

import io.distlock.LockBackendException;
import io.distlock.internal.text.PrintableText;
import java.time.Duration;
import java.util.List;
import java.util.function.Consumer;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException.Code;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * An operator's release of a hold, and the record by which the holder it freed learns why its node is gone: {@code
 * <basePath>/.released/<czxid>}, created in the transaction that deletes the holder's node, and deleted once the
 * holder, finding its node gone, read it. A record whose holder never comes back (its process ended) is removed by a later
 * operator's release once it is a day old on the server's clock.
 */
final class OperatorRecords {

    private static final Logger log = LoggerFactory.getLogger(OperatorRecords.class);

    /** The records' parent under the base path; key nodes never start with a dot. */
    static final String RECORDS = ".released";

    private static final long FORGOTTEN_AFTER_MILLIS = Duration.ofDays(1).toMillis();

    private OperatorRecords() {}

    /**
     * Deletes the key's holder node if it is granted, its lease runs on the server's clock and it was created by the
     * transaction the fencing token names, leaving the record in the same transaction; a node changed since it was read
     * (extended, say) is read again.
     *
     * @param parent the key's node
     * @return true if that hold was freed
     */
    static boolean release(ZooKeeperLeaseStore store, String key, String parent, long fencingToken) {
        String basePath = ZKPaths.getPathAndNode(parent).getPath();
        for (int attempt = 1; attempt <= 3; attempt++) {
            HolderNodes.Granted holder = HolderNodes.first(store, key, parent)
                    .filter(granted -> granted.stat().getCzxid() == fencingToken)
                    .orElse(null);
            if (holder == null) {
                return false;
            }
            createParent(store, key, basePath);
            List<CuratorOp> operations;
            try {
                operations = List.of(
                        store.client()
                                .transactionOp()
                                .create()
                                .withMode(CreateMode.PERSISTENT)
                                .forPath(record(basePath, fencingToken)),
                        store.client()
                                .transactionOp()
                                .delete()
                                .withVersion(holder.stat().getVersion())
                                .forPath(holder.path()));
            } catch (Exception e) {
                throw new LockBackendException(key, "releasing for an operator: could not be sent to ZooKeeper", e);
            }
            CuratorEvent answer = store.calls()
                    .await(
                            key,
                            "releasing for an operator",
                            cb -> store.client().transaction().inBackground(cb).forOperations(operations));
            Code code = Calls.code(answer);
            if (code == Code.OK) {
                forgetOldRecords(store, key, basePath);
                return true;
            }
            // The holder extended its lease or the records' container was just removed: read again.
            if (code != Code.BADVERSION && code != Code.NONODE) {
                throw Calls.failure(key, "releasing for an operator", answer);
            }
        }
        return false;
    }

    /**
     * Whether an operator freed the hold with this fencing token: its record is there.
     *
     * @return true if an operator, not the lease's end or another waiter, removed the holder's node
     */
    static boolean recorded(ZooKeeperLeaseStore store, String key, String basePath, long fencingToken) {
        CuratorEvent answer = store.calls()
                .await(
                        key,
                        "reading why the hold ended",
                        cb -> store.client().checkExists().inBackground(cb).forPath(record(basePath, fencingToken)));
        return switch (Calls.code(answer)) {
            case OK -> answer.getStat() != null;
            case NONODE -> false;
            default -> throw Calls.failure(key, "reading why the hold ended", answer);
        };
    }

    /**
     * As {@link #recorded}, without waiting: for Curator's event thread, which must not wait for an answer it delivers.
     * A read that cannot be sent counts as no record.
     */
    static void recordedInBackground(
            ZooKeeperLeaseStore store, String key, String basePath, long fencingToken, Consumer<Boolean> answer) {
        try {
            store.client()
                    .checkExists()
                    .inBackground((client, event) -> answer.accept(event.getStat() != null))
                    .forPath(record(basePath, fencingToken));
        } catch (Exception e) {
            log.debug("Could not ask why the hold of key {} ended", PrintableText.of(key), e);
            answer.accept(false);
        }
    }

    /** Deletes the record once its holder knows, in the background; one left behind goes when a day old. */
    static void forget(ZooKeeperLeaseStore store, String key, String basePath, long fencingToken) {
        try {
            store.client().delete().inBackground().forPath(record(basePath, fencingToken));
        } catch (Exception e) {
            log.debug("Could not remove the operator's record of key {}", PrintableText.of(key), e);
        }
    }

    private static void createParent(ZooKeeperLeaseStore store, String key, String basePath) {
        CuratorEvent answer = store.calls()
                .await(
                        key,
                        "preparing the operator's record",
                        cb -> store.client()
                                .create()
                                .creatingParentsIfNeeded()
                                .withMode(CreateMode.CONTAINER)
                                .inBackground(cb)
                                .forPath(ZKPaths.makePath(basePath, RECORDS)));
        if (Calls.code(answer) != Code.OK && Calls.code(answer) != Code.NODEEXISTS) {
            throw Calls.failure(key, "preparing the operator's record", answer);
        }
    }

    /** Best effort: a record left now is tried again at the next operator's release. */
    private static void forgetOldRecords(ZooKeeperLeaseStore store, String key, String basePath) {
        String records = ZKPaths.makePath(basePath, RECORDS);
        try {
            long now = store.clock().read(key).serverMillis();
            CuratorEvent listed = store.calls()
                    .await(
                            key,
                            "listing operator records",
                            cb -> store.client().getChildren().inBackground(cb).forPath(records));
            if (Calls.code(listed) != Code.OK) {
                return;
            }
            for (String name : listed.getChildren()) {
                String path = ZKPaths.makePath(records, name);
                CuratorEvent found = store.calls()
                        .await(
                                key,
                                "reading an operator record",
                                cb -> store.client()
                                        .checkExists()
                                        .inBackground(cb)
                                        .forPath(path));
                if (found.getStat() != null && now - found.getStat().getCtime() > FORGOTTEN_AFTER_MILLIS) {
                    store.client().delete().inBackground().forPath(path);
                }
            }
        } catch (Exception e) {
            log.debug("Could not remove old operator records under {}", records, e);
        }
    }

    private static String record(String basePath, long fencingToken) {
        return ZKPaths.makePath(ZKPaths.makePath(basePath, RECORDS), Long.toString(fencingToken));
    }
}
