package io.distlock.bench.contender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Offset.offset;

import io.distlock.bench.contender.Contender.Release;
import io.distlock.bench.redis.RedisTarget;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The path contenders lock what the path scenario needs them to: a path against its ancestors and descendants but not
 * its siblings, and held locks that stay held; and the seed folder lock behaves as the article's scripts do, flaws
 * included.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class PathContenderTest {

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration NO_WAIT = Duration.ZERO;

    private static RedisTarget target;

    @BeforeAll
    static void startRedis() {
        target = RedisTarget.open(null);
    }

    @AfterAll
    static void stopRedis() {
        target.close();
    }

    @ParameterizedTest
    @MethodSource("pathContenders")
    void aTakenPathRefusesItsAncestorsAndDescendantsButNotItsSiblings(ContenderKind kind) throws Exception {
        try (Contender contender = kind.create(target.nodes())) {
            String tree = tree();
            Release release = contender.tryAcquire(tree + "/docs/plans/q3", LEASE, NO_WAIT);
            assertThat(release).isNotNull();

            assertThat(contender.tryAcquire(tree + "/docs/plans/q3", LEASE, NO_WAIT))
                    .isNull();
            assertThat(contender.tryAcquire(tree + "/docs", LEASE, NO_WAIT)).isNull();
            assertThat(contender.tryAcquire(tree + "/docs/plans/q3/budget", LEASE, NO_WAIT))
                    .isNull();
            Release sibling = contender.tryAcquire(tree + "/docs/plans/q4", LEASE, NO_WAIT);
            assertThat(sibling).isNotNull();
            Release otherTree = contender.tryAcquire(tree() + "/docs/plans/q3", LEASE, NO_WAIT);
            assertThat(otherTree).as("the same path in another tree").isNotNull();

            release.release();
            sibling.release();
            otherTree.release();
            Release parent = contender.tryAcquire(tree + "/docs", LEASE, NO_WAIT);
            assertThat(parent).isNotNull();
            parent.release();
        }
    }

    @ParameterizedTest
    @MethodSource("pathContenders")
    void heldPathsStayTakenWhileOthersComeAndGo(ContenderKind kind) throws Exception {
        try (Contender contender = kind.create(target.nodes())) {
            String tree = tree();
            contender.hold(List.of(tree + "/src/main/1_app", tree + "/src/test/2_app", tree + "/docs/3_readme"), LEASE);

            assertThat(contender.tryAcquire(tree + "/src", LEASE, NO_WAIT)).isNull();
            assertThat(contender.tryAcquire(tree + "/docs/3_readme", LEASE, NO_WAIT))
                    .isNull();
            for (int i = 0; i < 3; i++) {
                Release release = contender.tryAcquire(tree + "/src/main/Mnew" + i, LEASE, NO_WAIT);
                assertThat(release).isNotNull();
                release.release();
            }
            assertThat(contender.tryAcquire(tree + "/src/test", LEASE, NO_WAIT)).isNull();
        }
    }

    @Test
    void theSeedFolderLockMatchesSubstringsNotPathSegments() throws Exception {
        try (Contender contender = ContenderKind.SEED_FOLDER.create(target.nodes())) {
            String tree = tree();
            assertThat(contender.tryAcquire(tree + "/docs/plan", LEASE, NO_WAIT))
                    .isNotNull();

            assertThat(contender.tryAcquire(tree + "/docs/planets", LEASE, NO_WAIT))
                    .as("a sibling whose name starts with the held one's")
                    .isNull();
        }
    }

    @Test
    void holdingSeedFolderLocksLeavesRedisAsTheSeedsScriptDoes() throws Exception {
        LettuceConnectionFactory factory = LettuceFactories.start(target.nodes());
        try (Contender contender = ContenderKind.SEED_FOLDER.create(target.nodes())) {
            StringRedisTemplate redis = new StringRedisTemplate(factory);
            String tree = tree();
            assertThat(contender.tryAcquire(tree + "/byScript", LEASE, NO_WAIT)).isNotNull();
            contender.hold(List.of(tree + "/held"), LEASE);

            String byScript = SeedFolderLockContender.PREFIX + tree + "/byScript";
            String held = SeedFolderLockContender.PREFIX + tree + "/held";
            Map<Object, Object> hash = redis.opsForHash().entries(SeedFolderLockContender.LOCKED_HASH + tree);
            assertThat(hash).containsOnlyKeys(byScript, held);
            assertThat(Long.parseLong((String) hash.get(held)))
                    .isCloseTo(Long.parseLong((String) hash.get(byScript)), offset(5_000L));
            for (String key : List.of(byScript, held)) {
                assertThat(redis.getExpire(key)).as(key).isBetween(LEASE.toSeconds() - 5, LEASE.toSeconds());
                assertThat(redis.opsForValue().get(key))
                        .as(key)
                        .hasSize(UUID.randomUUID().toString().length());
            }
        } finally {
            factory.destroy();
        }
    }

    static Stream<ContenderKind> pathContenders() {
        return Arrays.stream(ContenderKind.values()).filter(ContenderKind::isPath);
    }

    private static String tree() {
        return "bench:pathtest:" + UUID.randomUUID().toString().replace("-", "");
    }
}
