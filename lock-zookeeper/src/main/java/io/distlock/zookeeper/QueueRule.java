package io.distlock.zookeeper;

import java.util.List;
import java.util.function.BiPredicate;

/**
 * Which nodes ahead of a node in its queue keep it from holding, and how an acquisition names its node so that the
 * others can tell. A node holds once no earlier node blocks it, and waits behind the nearest one that does: in a key's
 * queue every node blocks a writer and only writers block a reader; in a tree's queue a node blocks the nodes whose
 * path it contains or lies within ({@link PathNodes}). The rule reads node names alone, so that one {@code
 * getChildren} of the queue tells each waiter where it stands. A semaphore's count of holders is not such a rule:
 * {@link ZooKeeperAcquisition} counts its permits itself.
 */
final class QueueRule {

    /** A lock's or a writer's node in a key's queue; also a semaphore's, whose holders are counted instead. */
    static final QueueRule WRITER = new QueueRule(Queue.WRITER_PREFIX, QueueRule::blocksInKeyQueue);

    /** A reader's node in a key's queue. */
    static final QueueRule READER = new QueueRule(Queue.READER_PREFIX, QueueRule::blocksInKeyQueue);

    private final String namePrefix;
    private final BiPredicate<String, String> blocks;

    /**
     * @param namePrefix the name of the acquisition's node before its sequence
     * @param blocks whether a node (the first argument) keeps a later node (the second) from holding
     */
    private QueueRule(String namePrefix, BiPredicate<String, String> blocks) {
        this.namePrefix = namePrefix;
        this.blocks = blocks;
    }

    /** A path's node in its tree's queue. */
    static QueueRule path(List<String> segments) {
        return new QueueRule(PathNodes.namePrefix(segments), PathNodes::conflict);
    }

    /** The name of the acquisition's node before the sequence that ZooKeeper appends. */
    String namePrefix() {
        return namePrefix;
    }

    /** Whether no node ahead of the one at {@code place} blocks it, so that it holds. */
    boolean mayHold(List<String> queue, int place) {
        return nearestBlocker(queue, place) < 0;
    }

    /** Where the nearest node ahead of the one at {@code place} that blocks it stands, or -1 if there is none. */
    int nearestBlocker(List<String> queue, int place) {
        String node = queue.get(place);
        for (int ahead = place - 1; ahead >= 0; ahead--) {
            if (blocks.test(queue.get(ahead), node)) {
                return ahead;
            }
        }
        return -1;
    }

    /** Readers share the key; a writer shares it with no one. */
    private static boolean blocksInKeyQueue(String earlier, String later) {
        return !(Queue.isReader(earlier) && Queue.isReader(later));
    }
}
