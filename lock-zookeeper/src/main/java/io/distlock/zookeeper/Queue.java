package io.distlock.zookeeper;

import io.distlock.internal.text.PrintableText;
import java.util.Comparator;
import java.util.List;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException.Code;
import org.apache.zookeeper.Watcher;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads and cleans a key's queue. Nodes are ordered by their sequence suffix, which the parent hands out in creation
 * order; every node of a queue was created under the same parent, as a container parent is only removed once empty.
 */
final class Queue {

    private static final Logger log = LoggerFactory.getLogger(Queue.class);
    /** How many digits ZooKeeper appends to a sequential node's name. */
    static final int SEQUENCE_DIGITS = 10;

    /** How the nodes of writers, of a lock's holders and of a semaphore's are named before their sequence. */
    static final String WRITER_PREFIX = "lease-";

    /** How the nodes of readers are named before their sequence. */
    static final String READER_PREFIX = "read-";

    private Queue() {}

    /** The queue's node names, first come first; empty if the key's node does not exist. */
    static List<String> read(ZooKeeperLeaseStore store, String key, String parent) {
        return read(store, key, parent, null);
    }

    /**
     * The queue's node names, first come first, setting {@code watcher} on the queue if it is not null: it fires once
     * when a node joins or leaves. Empty if the key's node does not exist.
     */
    static List<String> read(ZooKeeperLeaseStore store, String key, String parent, @Nullable Watcher watcher) {
        CuratorEvent answer = store.calls().await(key, "reading the queue", cb -> {
            if (watcher == null) {
                store.client().getChildren().inBackground(cb).forPath(parent);
            } else {
                store.client()
                        .getChildren()
                        .usingWatcher(watcher)
                        .inBackground(cb)
                        .forPath(parent);
            }
        });
        return switch (Calls.code(answer)) {
            case OK ->
                answer.getChildren().stream()
                        .filter(name -> sequence(name) >= 0)
                        .sorted(Comparator.comparingLong(Queue::sequence))
                        .toList();
            case NONODE -> List.of();
            default -> throw Calls.failure(key, "reading the queue", answer);
        };
    }

    /**
     * Removes a node of this client's. The delete is guaranteed: if the connection breaks, Curator repeats it once it
     * is back, for as long as the session lives.
     */
    static void remove(ZooKeeperLeaseStore store, String key, String path) {
        try {
            CuratorEvent answer = store.calls()
                    .await(
                            key,
                            "leaving the queue",
                            cb -> store.client()
                                    .delete()
                                    .guaranteed()
                                    .inBackground(cb)
                                    .forPath(path));
            if (Calls.code(answer) != Code.OK && Calls.code(answer) != Code.NONODE) {
                log.warn(
                        "Could not remove {} for key {}: ZooKeeper answered {}",
                        path,
                        PrintableText.of(key),
                        Calls.code(answer));
            }
        } catch (RuntimeException e) {
            log.warn("Could not remove {} for key {}", path, PrintableText.of(key), e);
        }
    }

    /** Removes every node of the queue that names this owner: for a create whose answer never came. */
    static void removeOwnerNodes(ZooKeeperLeaseStore store, String key, String parent, String owner) {
        try {
            for (String name : read(store, key, parent)) {
                String path = ZKPaths.makePath(parent, name);
                CuratorEvent answer = store.calls()
                        .await(
                                key,
                                "looking for a lost node",
                                cb -> store.client().getData().inBackground(cb).forPath(path));
                LeaseData data = Calls.code(answer) == Code.OK ? LeaseData.parse(answer.getData()) : null;
                if (data != null && data.owner().equals(owner)) {
                    remove(store, key, path);
                }
            }
        } catch (RuntimeException e) {
            log.warn("Could not look for nodes left by an unanswered create for key {}", PrintableText.of(key), e);
        }
    }

    /** Whether a node of the queue is a reader's. */
    static boolean isReader(String name) {
        return name.length() > SEQUENCE_DIGITS
                && name.substring(0, name.length() - SEQUENCE_DIGITS).endsWith(READER_PREFIX);
    }

    private static long sequence(String name) {
        if (name.length() < SEQUENCE_DIGITS) {
            return -1;
        }
        String digits = name.substring(name.length() - SEQUENCE_DIGITS);
        for (int i = 0; i < digits.length(); i++) {
            if (digits.charAt(i) < '0' || digits.charAt(i) > '9') {
                return -1;
            }
        }
        return Long.parseLong(digits);
    }
}
