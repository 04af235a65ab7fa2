package io.distlock.zookeeper;

import io.distlock.internal.path.PathRules;
import java.util.List;
import org.apache.curator.utils.ZKPaths;
import org.jspecify.annotations.Nullable;

/**
 * Lays out the nodes of path locks. A tree's node is {@code <basePath>/.paths/<tree>}, the tree's name encoded as a
 * key's ({@link KeyNodes}), apart from every key's node; its data version counts the claims made in the tree. Each held
 * path is an ephemeral sequential node under it named {@code path.<path>.} before its sequence, its canonical path
 * ({@code ""} for the whole tree) encoded the same way, so that the name holds no {@code /} and the path ends at its
 * last dot: a claimer reads every held path from the tree's children's names alone.
 */
final class PathNodes {

    private static final String TREES_NODE = ".paths";

    private static final String MARK = "path.";

    private static final char END = '.';

    private PathNodes() {}

    /** The tree's node. */
    static String treePath(String basePath, String tree) {
        return ZKPaths.makePath(basePath, TREES_NODE, KeyNodes.nodeName(tree));
    }

    /** The name of a path's node before its sequence. */
    static String namePrefix(List<String> segments) {
        return MARK + KeyNodes.nodeName(PathRules.join(segments)) + END;
    }

    /**
     * Whether the node of a tree holds a path that conflicts with this one: one contains the other. A node whose name
     * holds no path was not made by this store, and is taken to conflict with every path, as nobody can tell what it
     * holds.
     */
    static boolean conflict(String node, List<String> path) {
        List<String> held = segments(node);
        return held == null || PathRules.contains(held, path) || PathRules.contains(path, held);
    }

    /** The path that a node of a tree holds, or null if its name holds none. */
    static @Nullable List<String> segments(String nodeName) {
        int end = nodeName.length() - Queue.SEQUENCE_DIGITS - 1;
        if (!nodeName.startsWith(MARK) || end < MARK.length() || nodeName.charAt(end) != END) {
            return null;
        }
        String path = KeyNodes.text(nodeName.substring(MARK.length(), end));
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
