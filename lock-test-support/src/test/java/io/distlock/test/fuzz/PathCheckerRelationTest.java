package io.distlock.test.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.test.TestRedis;
import java.util.List;
import java.util.SplittableRandom;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The path checker's two comparisons of paths, its Lua's and its Java's ({@link PathRecords}' offline check), agree
 * with the path lock's rules on the names a path run uses: a path conflicts with itself, its ancestors and its
 * descendants, whole segments only. A checker that matched by string prefix would pass a broken lock.
 */
class PathCheckerRelationTest {

    private static TestRedis redis;

    @BeforeAll
    static void startRedis() {
        redis = TestRedis.start();
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
        }
    }

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
    void theJavaComparisonFollowsWholeSegments(String path, String other, boolean conflict) {
        assertThat(PathTree.conflicts(path, other)).isEqualTo(conflict);
        assertThat(PathTree.conflicts(other, path)).isEqualTo(conflict);
        assertThat(PathRecords.fenceInversions(List.of("2 " + other, "1 " + path)))
                .as("a token below an earlier one on %s", other)
                .isEqualTo(conflict ? 1 : 0);
    }

    /**
     * The refusal script answers 1 only for a claim on a strict ancestor or descendant, and counts a refusal with no
     * conflicting claim apart: through it the Lua's comparison, shared with the entry and checkpoint judgements, is
     * tested on its own.
     */
    @ParameterizedTest
    @MethodSource("pairs")
    void theLuaComparisonFollowsWholeSegments(String path, String other, boolean conflict) {
        String claims = "path-relation-test:claims";
        String refusals = "path-relation-test:refusals";
        String unclaimed = "path-relation-test:unclaimed";
        redis.command("DEL", claims, refusals, unclaimed);
        redis.command("HSET", claims, "section", "inf " + other);

        String byRelative = redis.command(
                "EVAL", PathCheckerScripts.REFUSED.getScriptAsString(), "3", claims, refusals, unclaimed, path);

        assertThat(byRelative)
                .as("refused %s while %s was inside", path, other)
                .isEqualTo(conflict && !path.equals(other) ? "1" : "0");
        assertThat(redis.command("GET", unclaimed))
                .as("refused %s while only %s was inside, apart from it", path, other)
                .isEqualTo(conflict ? null : "1");
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
