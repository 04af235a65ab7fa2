package io.distlock.bench.worker;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.NavigableSet;
import java.util.TreeSet;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

/**
 * The path scenario's tree: its held locks can all be held at once, and every measured path can be taken among them,
 * under distlock's rules (a path conflicts with its ancestors and descendants) and under the seed folder lock's (a key
 * conflicts with every key it is a substring of, or that is a substring of it). All keys of one tree start with the
 * same tree name, which no path contains, so for both locks two keys conflict only if one is a string prefix of the
 * other.
 */
class TreePathsTest {

    private static final int HELD = 10_000;

    private static final String LUA_PATTERN_CHARACTERS = "^$()%.[]*+-?";

    @Test
    void heldPathsAreDistinctFilesOfDepthThreeToFiveThatNoneOfTheOthersConflictsWith() {
        List<String> held = held();

        assertThat(held).doesNotHaveDuplicates();
        assertThat(held).allSatisfy(path -> {
            assertThat(path.split("/", -1)).hasSizeBetween(3, 5).doesNotContain("");
            assertThat(path).doesNotContainAnyWhitespaces();
            LUA_PATTERN_CHARACTERS.chars().forEach(c -> assertThat(path).doesNotContain(Character.toString(c)));
        });
        // In sorted order, a path that is a prefix of others is directly followed by one of them.
        List<String> sorted = new ArrayList<>(new TreeSet<>(held));
        for (int i = 1; i < sorted.size(); i++) {
            assertThat(sorted.get(i)).as("follows %s", sorted.get(i - 1)).doesNotStartWith(sorted.get(i - 1));
        }
    }

    @Test
    void heldPathsSpreadOverManyFoldersAtEveryDepth() {
        List<String> held = held();

        assertThat(held.stream()
                        .map(path -> path.substring(0, path.indexOf('/')))
                        .distinct())
                .hasSize(TreePaths.FOLDERS_PER_LEVEL);
        assertThat(held.stream()
                        .map(path -> path.substring(0, path.lastIndexOf('/')))
                        .distinct())
                .hasSizeGreaterThan(1_000);
        assertThat(held.stream().map(path -> path.split("/").length).distinct()).containsExactlyInAnyOrder(3, 4, 5);
    }

    @Test
    void measuredPathsAreNewFilesAmongTheHeldOnesThatNoHeldPathAndNoOtherMeasuredPathConflictsWith() {
        NavigableSet<String> held = new TreeSet<>(held());
        List<String> measured = new ArrayList<>();
        for (long run : new long[] {1_700_000_000_000L, 1_700_000_000_001L}) {
            for (long sequence = 0; sequence < 2_000; sequence++) {
                measured.add(TreePaths.measured(run, 0, sequence));
            }
        }
        measured.add(TreePaths.measured(1_700_000_000_000L, 1, 0));

        assertThat(measured.stream().map(path -> path.split("/").length).distinct())
                .containsExactlyInAnyOrder(3, 4, 5);
        long inHeldFolders = measured.stream()
                .map(path -> path.substring(0, path.lastIndexOf('/') + 1))
                .filter(folder -> {
                    String next = held.ceiling(folder);
                    return next != null && next.startsWith(folder);
                })
                .count();
        assertThat(inHeldFolders)
                .as("measured paths in folders with held locks")
                .isGreaterThan(measured.size() / 2);
        for (String path : measured) {
            assertThat(conflicts(held, path)).as(path).isEmpty();
        }
        NavigableSet<String> measuredSet = new TreeSet<>(measured);
        assertThat(measuredSet).hasSameSizeAs(measured);
        for (String path : measured) {
            assertThat(conflicts(measuredSet.headSet(path, false), path))
                    .as(path)
                    .isEmpty();
        }
    }

    private static List<String> held() {
        return LongStream.range(0, HELD).mapToObj(TreePaths::held).toList();
    }

    /** The paths of {@code others} that {@code path} starts with, or that start with it. */
    private static List<String> conflicts(NavigableSet<String> others, String path) {
        List<String> conflicts = new ArrayList<>();
        for (int end = 1; end <= path.length(); end++) {
            if (others.contains(path.substring(0, end))) {
                conflicts.add(path.substring(0, end));
            }
        }
        String next = others.higher(path);
        if (next != null && next.startsWith(path)) {
            conflicts.add(next);
        }
        return conflicts;
    }
}
