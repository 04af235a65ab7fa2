package io.distlock.tck.fuzz;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The random tree whose paths a path lock fuzz run locks, and the checker's own notion of which paths conflict. Paths
 * are kept canonical: segments joined by {@code /}, without a leading or trailing one; the root is the empty path.
 *
 * <p>Every node's children are one family of sibling names, each a stem and names that begin with it without a
 * segment boundary ({@code b}, {@code bc}, {@code b c}), or with characters that are special in Lua patterns or Redis
 * hash tags ({@code %}, {@code *}, {@code .}, {@code -}, {@code [}, <code>{</code>), spaces (not a blank segment,
 * which the lock refuses) or non-ASCII text. A lock that matched paths by string prefix, or by a pattern built from a
 * path, would then conflict siblings, or miss an ancestor, somewhere in every run.
 */
final class PathTree {

    /** The name of the run's one tree; the run's key prefix keeps it apart from other runs'. */
    static final String NAME = "project:42";

    /** The deepest a path goes, in segments. */
    static final int MAX_DEPTH = 4;

    private static final List<List<String>> FAMILIES = List.of(
            List.of("b", "bc", "b c"),
            List.of("a", "a-b", "a.b"),
            List.of("%", "%a", "%%"),
            List.of("*", "*a", "a*"),
            List.of("ü", "üb", "u"),
            List.of("文", "文件", "文件夹"),
            List.of("{x}", "{x}y", "x"),
            List.of(" a", " a b", "a "),
            List.of("[a]", "[a]b", "a]"),
            List.of("x", "x+", "x?"));

    /** How likely a node above the deepest level has children: most do, so that the tree is 50 to 120 paths. */
    private static final int PERCENT_WITH_CHILDREN = 85;

    /**
     * How often a section locks a path of each depth, in percent, from the root down: the root rarely, since it waits
     * for the whole tree, and the deeper levels most, where ancestors, descendants and siblings are all at hand.
     */
    private static final int[] DEPTH_PERCENTS = {2, 13, 25, 30, 30};

    private final List<String> paths;
    private final List<List<String>> byDepth = new ArrayList<>();

    private PathTree(List<String> paths) {
        this.paths = List.copyOf(paths);
        for (int depth = 0; depth <= MAX_DEPTH; depth++) {
            byDepth.add(new ArrayList<>());
        }
        for (String path : paths) {
            byDepth.get(segments(path).size()).add(path);
        }
        if (byDepth.get(1).size() < 2) {
            throw new IllegalArgumentException(
                    "a tree needs two children of the root, or no path is apart from another: " + paths);
        }
    }

    /** A tree drawn from {@code seed}: the same for every worker process of a run. */
    static PathTree random(long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<String> paths = new ArrayList<>();
        paths.add("");
        addChildren("", 0, random, paths);
        return new PathTree(paths);
    }

    /** The tree of these canonical paths, as {@link #paths()} lists them. */
    static PathTree of(List<String> paths) {
        return new PathTree(paths);
    }

    private static void addChildren(String parent, int depth, SplittableRandom random, List<String> paths) {
        for (String name : FAMILIES.get(random.nextInt(FAMILIES.size()))) {
            String child = parent.isEmpty() ? name : parent + "/" + name;
            paths.add(child);
            if (depth + 1 < MAX_DEPTH && random.nextInt(100) < PERCENT_WITH_CHILDREN) {
                addChildren(child, depth + 1, random, paths);
            }
        }
    }

    /** Every path of the tree, the root first, each parent before its children. */
    List<String> paths() {
        return paths;
    }

    /** A path for a section to lock, deeper ones more often. */
    String draw(SplittableRandom random) {
        int point = random.nextInt(100);
        int depth = 0;
        while (point >= DEPTH_PERCENTS[depth]) {
            point -= DEPTH_PERCENTS[depth];
            depth++;
        }
        while (byDepth.get(depth).isEmpty()) {
            depth--;
        }
        List<String> level = byDepth.get(depth);
        return level.get(random.nextInt(level.size()));
    }

    /** A path other than the root, which some other path of the tree does not conflict with. */
    String drawBelowRoot(SplittableRandom random) {
        String path;
        do {
            path = draw(random);
        } while (path.isEmpty());
        return path;
    }

    /** A path that conflicts with {@code path} in no way: neither the same, nor an ancestor, nor a descendant. */
    String drawApartFrom(String path, SplittableRandom random) {
        if (path.isEmpty()) {
            throw new IllegalArgumentException("every path conflicts with the root");
        }
        String other;
        do {
            other = draw(random);
        } while (conflicts(path, other));
        return other;
    }

    /**
     * Whether two canonical paths conflict: one's segments begin with all of the other's, compared whole, which makes
     * them the same path, or one an ancestor of the other.
     */
    static boolean conflicts(String path, String other) {
        List<String> mine = segments(path);
        List<String> theirs = segments(other);
        int common = Math.min(mine.size(), theirs.size());
        return mine.subList(0, common).equals(theirs.subList(0, common));
    }

    static List<String> segments(String path) {
        return path.isEmpty() ? List.of() : Arrays.asList(path.split("/", -1));
    }

    /**
     * One of the ways to write {@code path} to the lock: as it is, or with a leading or trailing {@code /} or both,
     * which the lock ignores; the root as {@code ""} or {@code "/"}.
     */
    static String spelled(String path, SplittableRandom random) {
        if (path.isEmpty()) {
            return random.nextBoolean() ? "" : "/";
        }
        int form = random.nextInt(4);
        return ((form & 1) != 0 ? "/" : "") + path + ((form & 2) != 0 ? "/" : "");
    }

    /** The canonical path of a spelling of it. */
    static String canonical(String spelled) {
        String path = spelled.startsWith("/") ? spelled.substring(1) : spelled;
        return path.endsWith("/") ? path.substring(0, path.length() - 1) : path;
    }
}
