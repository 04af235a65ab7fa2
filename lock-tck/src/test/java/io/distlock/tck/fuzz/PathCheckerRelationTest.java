package io.distlock.tck.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The path checker's two comparisons of paths, its ledger's and its offline check's ({@link PathRecords}), agree with
 * the path lock's rules on the names a path run uses: a path conflicts with itself, its ancestors and its descendants,
 * whole segments only. A checker that matched by string prefix would pass a broken lock.
 */
class PathCheckerRelationTest {

    private static final long NOW = 1_000_000;

    static Stream<Arguments> pairs() {
        return Stream.of(
                Arguments.of("", "a", true),
                Arguments.of("a", "a", true),
                Arguments.of("a", "a/b", true),
                Arguments.of("a/b/c", "a", true),
                Arguments.of("ü/a", "ü/a/b c", true),
                Arguments.of(" a", " a/a ", true),
                Arguments.of("%/*", "%/*/a.b", true),
                Arguments.of("a", "a-b", false),
                Arguments.of("a", "a.b", false),
                Arguments.of("b", "bc", false),
                Arguments.of("b", "bc/x", false),
                Arguments.of("a/b", "a/bc", false),
                Arguments.of("a/b", "a/b c", false),
                Arguments.of("%", "%a", false),
                Arguments.of("%", "%%/x", false),
                Arguments.of("*", "*a", false),
                Arguments.of("a.b", "a-b", false),
                Arguments.of("文", "文件", false),
                Arguments.of("文/件", "文件", false),
                Arguments.of("{x}", "{x}y", false),
                Arguments.of("x", "x+/y", false),
                Arguments.of("[a]", "[a]b", false),
                Arguments.of(" a", " a b", false),
                Arguments.of("a/b", "b/a", false));
    }

    @ParameterizedTest
    @MethodSource("pairs")
    void theOfflineComparisonFollowsWholeSegments(String path, String other, boolean conflict) {
        assertThat(PathTree.conflicts(path, other)).isEqualTo(conflict);
        assertThat(PathTree.conflicts(other, path)).isEqualTo(conflict);
        assertThat(PathRecords.fenceInversions(
                        List.of(new PathRecords.Entry(2, other), new PathRecords.Entry(1, path))))
                .as("a token below an earlier one on %s", other)
                .isEqualTo(conflict ? 1 : 0);
    }

    /**
     * A refusal counts as by a relative only for a claim on a strict ancestor or descendant, and apart with no
     * conflicting claim: through it the ledger's comparison, shared with its entry and checkpoint judgements, is tested
     * on its own.
     */
    @ParameterizedTest
    @MethodSource("pairs")
    void theLedgersComparisonFollowsWholeSegments(String path, String other, boolean conflict) {
        PathLedger ledger = new PathLedger(() -> NOW);
        Claimant inside = new Claimant(PathKeys.plainKeyOf(other), "inside", "owner-1", 1, false);
        ledger.enter(inside, HolderRead.until("owner-1", NOW + 10_000));

        ledger.refused(PathKeys.plainKeyOf(path));

        CheckerRecords records = ledger.records(List.of());
        assertThat(records.refusedByRelatives())
                .as("refused %s while %s was inside", path, other)
                .isEqualTo(conflict && !path.equals(other) ? 1 : 0);
        assertThat(records.refusedByNoSection())
                .as("refused %s while only %s was inside, apart from it", path, other)
                .isEqualTo(conflict ? 0 : 1);
    }

    @Test
    void everyPathOfARandomTreeHasOneApartFromIt() {
        PathTree tree = PathTree.random(42);
        SplittableRandom random = new SplittableRandom(7);
        for (String path : tree.paths().subList(1, tree.paths().size())) {
            assertThat(PathTree.conflicts(path, tree.drawApartFrom(path, random)))
                    .isFalse();
        }
        assertThat(tree.paths())
                .as("the tree of seed 42")
                .hasSizeGreaterThan(20)
                .allSatisfy(path -> assertThat(PathTree.segments(path)).hasSizeLessThanOrEqualTo(PathTree.MAX_DEPTH));
    }
}
