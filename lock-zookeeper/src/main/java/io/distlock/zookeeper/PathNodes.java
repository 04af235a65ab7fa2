package io.distlock.zookeeper;

import io.distlock.internal.path.PathRules;
import java.util.List;
import org.apache.curator.utils.ZKPaths;
import org.jspecify.annotations.Nullable;

/**
 * Lays out the queues of path locks. A tree's queue is the container node {@code <basePath>/.paths/<tree>}, the
 * tree's name encoded as a key's ({@link KeyNodes}), apart from every key's queue. Each acquisition's node is named
 * {@code path.<path>.} before its sequence, its canonical path ({@code ""} for the whole tree) encoded the same way, so
 * that the name holds no {@code /} and the path ends at its last dot: a waiter reads every node's path from the
 * queue's names alone.
 */
final class PathNodes {

    private static final String TREES_NODE = ".paths";

    /** Curator puts its protection before the name; its text has no dot, so the path starts after the first one. */
    private static final String MARK = "path.";

    private static final char END = '.';

    private PathNodes() {}

    /** The node of the tree's queue. */
    static String queuePath(String basePath, String tree) {
        return ZKPaths.makePath(basePath, TREES_NODE, KeyNodes.nodeName(tree));
    }

    /** The name of a path's node before its sequence. */
    static String namePrefix(List<String> segments) {
        return MARK + KeyNodes.nodeName(PathRules.join(segments)) + END;
    }

    /**
     * Whether the paths of two nodes of a tree's queue conflict: one contains the other. A node whose name holds no
     * path was not made by this store, and is taken to conflict with every path, as nobody can tell what it holds.
     */
    static boolean conflict(String node, String other) {
        List<String> path = segments(node);
        List<String> otherPath = segments(other);
        return path == null
                || otherPath == null
                || PathRules.contains(path, otherPath)
                || PathRules.contains(otherPath, path);
    }

    /** The path of a node of a tree's queue, or null if its name holds none. */
    static @Nullable List<String> segments(String nodeName) {
        int start = nodeName.indexOf(MARK) + MARK.length();
        int end = nodeName.length() - Queue.SEQUENCE_DIGITS - 1;
        if (start < MARK.length() || end < start || nodeName.charAt(end) != END) {
            return null;
        }
        String path = KeyNodes.text(nodeName.substring(start, end));
        return path == null ? null : path.isEmpty() ? List.of() : List.of(path.split("/", -1));
    }

    /**
     * Refuses a tree's name or a path that is not valid Unicode text.
     *
     * @throws IllegalArgumentException naming the part that has an unpaired surrogate
     */
    static void validate(String tree, List<String> segments) {
        KeyNodes.validate("tree name", tree);
        KeyNodes.validate("path", PathRules.join(segments));
    }
}
