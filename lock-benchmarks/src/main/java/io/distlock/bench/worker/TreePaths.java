package io.distlock.bench.worker;

import java.util.SplittableRandom;

/**
 * The paths of the path scenario: the locks held in a tree, the same for every contender and run so that the
 * contenders lock the same tree, and the fresh paths whose acquisition is measured among them.
 *
 * <p>A held path is 2 to 4 folders, each one of {@value #FOLDERS_PER_LEVEL} random lowercase names per depth, and a
 * file named {@code <index>_<word>}: 3 to 5 segments, spread over thousands of folders. A measured path is a new file,
 * {@code M<run>t<thread>s<sequence>e}, in folders drawn the same way, which hold files of held locks too once the tree
 * holds thousands. None of these paths conflicts with another, under distlock's rules (ancestor, self, descendant) or
 * the seed folder lock's (one key a substring of the other):
 *
 * <ul>
 *   <li>only file names contain {@code _} or digits, and the index makes every held file name distinct, so no held
 *       path is a string prefix of another;
 *   <li>only measured file names contain an upper-case letter, so no held path starts with a measured one or the
 *       other way round;
 *   <li>neither contains a character that Lua patterns treat specially, which the seed's {@code string.find} would.
 * </ul>
 */
final class TreePaths {

    static final int FOLDERS_PER_LEVEL = 8;

    private static final int MAX_FOLDER_DEPTH = 4;

    /** Fixed, so that every run and every contender builds the same tree. */
    private static final long SEED = 16;

    private static final String[][] FOLDER_NAMES = folderNames();

    private TreePaths() {}

    /**
     * The path of the held lock with this index.
     *
     * @param index 0, 1, 2, ...
     * @return for example {@code kqzv/abwtemx/4711_hzd}
     */
    static String held(long index) {
        SplittableRandom random = new SplittableRandom(SEED + index);
        return folders(random) + "/" + index + "_" + word(random);
    }

    /**
     * A path that no held lock conflicts with: a new file in folders drawn as the held paths' are, whatever the number
     * of held locks, so that every round takes paths of the same depths.
     *
     * @param run what tells this run from the others in the tree
     * @param thread the acquiring thread
     * @param sequence the thread's acquisition number
     * @return a new path on every call with other arguments
     */
    static String measured(long run, int thread, long sequence) {
        SplittableRandom random = new SplittableRandom(run * 31 * 31 + thread * 31L + sequence);
        // Every number ends with a letter, so no measured file name is a string prefix of another.
        return folders(random) + "/M" + run + "t" + thread + "s" + sequence + "e";
    }

    private static String folders(SplittableRandom random) {
        int depth = 2 + random.nextInt(MAX_FOLDER_DEPTH - 1);
        StringBuilder folders = new StringBuilder();
        for (int level = 0; level < depth; level++) {
            folders.append(level == 0 ? "" : "/").append(FOLDER_NAMES[level][random.nextInt(FOLDERS_PER_LEVEL)]);
        }
        return folders.toString();
    }

    private static String[][] folderNames() {
        SplittableRandom random = new SplittableRandom(SEED);
        String[][] names = new String[MAX_FOLDER_DEPTH][FOLDERS_PER_LEVEL];
        for (String[] level : names) {
            for (int i = 0; i < level.length; i++) {
                level[i] = word(random);
            }
        }
        return names;
    }

    private static String word(SplittableRandom random) {
        int length = 3 + random.nextInt(6);
        StringBuilder word = new StringBuilder(length);
        for (int i = 0; i < length; i++) {
            word.append((char) ('a' + random.nextInt(26)));
        }
        return word.toString();
    }
}
