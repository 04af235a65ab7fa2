package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockBackendException;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.MultiLockHandle;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.data.redis.core.StringRedisTemplate;

/** Paths of one tree, against a real Redis, through independent clients. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PathLockTest {

    private static final Lease LONG = Lease.fixed(Duration.ofSeconds(30));

    private final RedisClients clients = new RedisClients(TestRedis.shared());
    private final ExecutorService threads = Executors.newCachedThreadPool();
    private final String tree = "tree:" + UUID.randomUUID();

    @AfterEach
    void stop() throws Exception {
        threads.shutdownNow();
        assertThat(threads.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        clients.close();
    }

    @Test
    void theSeedsExampleRefusesTheDescendantAndTheAncestorAndGrantsTheSibling() {
        PathLock holder = clients.lock().tree(tree);
        PathLock other = clients.lock().tree(tree);
        holder.tryAcquire("project/A/C", LONG).orElseThrow();

        assertThat(other.tryAcquire("project/A/C/D", LONG)).as("descendant").isEmpty();
        assertThat(other.tryAcquire("project/A", LONG)).as("ancestor").isEmpty();
        assertThat(other.tryAcquire("project/A/C", LONG)).as("the same path").isEmpty();
        assertThat(other.tryAcquire("", LONG)).as("the whole tree").isEmpty();
        assertThat(other.tryAcquire("project/A/B", LONG)).as("sibling").isPresent();
        assertThat(other.tryAcquire("project/B/C", LONG)).as("cousin").isPresent();
    }

    @Test
    void segmentsMatchWholeSoAPathNeverConflictsWithOneItIsATextPrefixOf() {
        PathLock holder = clients.lock().tree(tree);
        PathLock other = clients.lock().tree(tree);
        holder.tryAcquire("a/b", LONG).orElseThrow();

        assertThat(other.tryAcquire("a/bc", LONG)).isPresent();
        assertThat(other.tryAcquire("a/b c", LONG)).isPresent();
        assertThat(other.tryAcquire("ab", LONG)).isPresent();
        assertThat(other.tryAcquire("a/b/c", LONG)).isEmpty();
    }

    @Test
    void charactersThatLuaPatternsOrGlobsGiveMeaningToArePlainText() {
        PathLock holder = clients.lock().tree(tree);
        PathLock other = clients.lock().tree(tree);
        List<String> names = List.of("a-b", "n%d", "a.b", "x*", "two words", "文件夹", "ü", "{tag}", "[set]", "^$()");
        for (String name : names) {
            holder.tryAcquire("root/" + name, LONG).orElseThrow();
        }

        for (String name : names) {
            assertThat(other.tryAcquire("root/" + name + "/child", LONG))
                    .as("below %s", name)
                    .isEmpty();
            assertThat(other.tryAcquire("root/" + name, LONG)).as(name).isEmpty();
        }
        // What Lua's string.find would match for these patterns, or a glob would: all of them siblings, all free.
        for (String lookalike : List.of("ab", "a-bb", "nd", "axb", "x", "xx", "two  words", "文件", "u", "tag", "s")) {
            assertThat(other.tryAcquire("root/" + lookalike, LONG))
                    .as(lookalike)
                    .isPresent();
        }
        assertThat(other.tryAcquire("root", LONG)).isEmpty();
    }

    @Test
    void aPathTwentyDeepConflictsWithEveryAncestorAndDescendantOnly() {
        PathLock holder = clients.lock().tree(tree);
        PathLock other = clients.lock().tree(tree);
        List<String> segments = new ArrayList<>();
        for (int depth = 1; depth <= 20; depth++) {
            segments.add("level-" + depth);
        }
        String deep = PathLock.path(segments);
        LockHandle held = holder.tryAcquire(deep, LONG).orElseThrow();

        for (int depth = 0; depth <= 20; depth++) {
            assertThat(other.tryAcquire(PathLock.path(segments.subList(0, depth)), LONG))
                    .as("ancestor of depth %d", depth)
                    .isEmpty();
        }
        assertThat(other.tryAcquire(deep + "/level-21", LONG)).isEmpty();
        LockHandle sibling = other.tryAcquire(PathLock.path(segments.subList(0, 19)) + "/sibling", LONG)
                .orElseThrow();

        held.release();
        sibling.release();
        assertThat(other.tryAcquire("level-1", LONG)).isPresent();
    }

    @Test
    void aReleaseFreesThePathAndEveryAncestorAndLeavesOthersHeld() {
        PathLock holder = clients.lock().tree(tree);
        PathLock other = clients.lock().tree(tree);
        LockHandle left = holder.tryAcquire("p/left", LONG).orElseThrow();
        holder.tryAcquire("p/right", LONG).orElseThrow();

        left.release();

        assertThat(other.tryAcquire("p/left/x", LONG)).isPresent();
        assertThat(other.tryAcquire("p", LONG)).as("p/right is still held").isEmpty();
    }

    @Test
    void aFixedLeaseThatRunsOutFreesTheAncestorsAndItsHolderFindsOut() {
        PathLock holder = clients.lock().tree(tree);
        PathLock other = clients.lock().tree(tree);
        LockHandle held =
                holder.tryAcquire("a/b/c", Lease.fixed(Duration.ofMillis(300))).orElseThrow();

        await().atMost(Duration.ofSeconds(5))
                .until(() -> other.tryAcquire("a", LONG).isPresent());
        assertThat(held.isLost()).isTrue();
        assertThatThrownBy(held::release).isInstanceOf(LockLostException.class);
    }

    @Test
    void aRenewedLeaseKeepsTheAncestorsTakenLongAfterTheWatchdogLease() throws Exception {
        // A watchdog lease of seconds, held for more than two: renewals outlive it on a busy machine, whose scheduling
        // has been seen to stall a renewal for about a second.
        PathLock holder = clients.lock(builder -> builder.watchdogLease(Duration.ofMillis(1500)))
                .tree(tree);
        PathLock other = clients.lock().tree(tree);
        LockHandle held = holder.tryAcquire("a/b/c", Lease.renewed()).orElseThrow();

        Thread.sleep(3500);

        assertThat(other.tryAcquire("a", LONG)).isEmpty();
        assertThat(other.tryAcquire("", LONG)).isEmpty();
        assertThat(held.isHeld()).isTrue();
        held.release();
        assertThat(other.tryAcquire("", LONG)).isPresent();
    }

    @Test
    void extendingAPathSetsTheLeaseOfItsAncestorsToo() {
        PathLock holder = clients.lock().tree(tree);
        PathLock other = clients.lock().tree(tree);
        LockHandle held =
                holder.tryAcquire("a/b", Lease.fixed(Duration.ofMillis(400))).orElseThrow();

        held.extend(Duration.ofSeconds(30));

        await().pollDelay(Duration.ofMillis(800)).atMost(Duration.ofSeconds(5)).until(() -> true);
        assertThat(other.tryAcquire("a", LONG))
                .as("the ancestor's count was extended")
                .isEmpty();
        assertThat(held.isHeld()).isTrue();
        assertThat(held.remainingLease()).isGreaterThan(Duration.ofSeconds(25));
    }

    @Test
    void aHolderWhosePathWasTakenFromItFindsOutAndItsReleaseLeavesTheNewOwnerAlone() {
        PathLock holder = clients.lock().tree(tree);
        PathLock other = clients.lock().tree(tree);
        LockHandle held =
                holder.tryAcquire("a/b", Lease.fixed(Duration.ofMillis(300))).orElseThrow();
        LockHandle next = await().atMost(Duration.ofSeconds(5))
                .until(() -> other.tryAcquire("a/b", LONG), Optional::isPresent)
                .orElseThrow();

        assertThat(held.isHeld()).isFalse();
        assertThatThrownBy(held::release).isInstanceOf(LockLostException.class);
        assertThat(next.isHeld()).isTrue();
        assertThat(holder.tryAcquire("a", LONG))
                .as("the new owner still counts below a")
                .isEmpty();
    }

    @Test
    void fencingTokensIncreaseAcrossEveryPathOfTheTree() {
        PathLock lock = clients.lock().tree(tree);
        LockHandle first = lock.tryAcquire("a/b", LONG).orElseThrow();
        LockHandle second = lock.tryAcquire("a/c", LONG).orElseThrow();
        first.release();
        second.release();
        LockHandle ancestor = lock.tryAcquire("a", LONG).orElseThrow();

        assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
        assertThat(ancestor.fencingToken()).isGreaterThan(second.fencingToken());
    }

    @Test
    void treesAreIndependentAndDoNotCollideWithPlainKeys() {
        RedisLock lock = clients.lock();
        String name = "name-" + UUID.randomUUID();
        lock.tree(tree).tryAcquire(name, LONG).orElseThrow();
        lock.tryAcquire(tree, LONG).orElseThrow();

        assertThat(clients.lock().tree(tree + "-other").tryAcquire(name, LONG)).isPresent();
        assertThat(clients.lock().tryAcquire(name, LONG)).isPresent();
        assertThat(clients.lock().tree(tree).tryAcquire("b", LONG)).isPresent();
    }

    @Test
    void aWaiterForAnAncestorInAnotherInstanceIsWokenByTheDescendantsRelease() throws Exception {
        Duration woken = timeFromReleaseToGrant(false, "a/b/c", "a");

        assertThat(woken).as("far below the 30 s lease that refused it").isLessThan(Duration.ofSeconds(2));
    }

    @Test
    void aWaiterForADescendantInTheSameInstanceIsWokenByTheAncestorsRelease() throws Exception {
        Duration woken = timeFromReleaseToGrant(true, "a", "a/b/c");

        assertThat(woken).as("far below the 30 s lease that refused it").isLessThan(Duration.ofSeconds(2));
    }

    /**
     * Holds {@code held}, lets another thread wait for {@code wanted} (through the holder's lock instance or another),
     * releases, and times the waiter's grant.
     */
    private Duration timeFromReleaseToGrant(boolean sameInstance, String held, String wanted) throws Exception {
        // A prefix of its own, so that its release channel's subscribers are this test's alone.
        String prefix = "woken-" + UUID.randomUUID() + ":";
        PathLock holder = clients.lock(builder -> builder.keyPrefix(prefix)).tree(tree);
        PathLock waiter = sameInstance
                ? holder
                : clients.lock(builder -> builder.keyPrefix(prefix)).tree(tree);
        LockHandle holding = holder.tryAcquire(held, LONG).orElseThrow();
        Future<Optional<LockHandle>> waiting =
                threads.submit(() -> waiter.tryAcquire(wanted, LONG, Duration.ofSeconds(20)));
        await().atMost(Duration.ofSeconds(5))
                .until(() -> TestRedis.shared().command("EXISTS", "{" + prefix + tree + "}/w"), "1"::equals);
        // Every instance subscribes with its first answer. A new subscription wakes every waiter of its instance: it
        // must
        // be in place, and that wake-up over, first.
        await().atMost(Duration.ofSeconds(5))
                .until(
                        () -> TestRedis.shared().command("PUBSUB", "NUMSUB", prefix + "released"),
                        reply -> reply.endsWith("\n" + (sameInstance ? 1 : 2)));
        await().pollDelay(Duration.ofMillis(500)).until(() -> true);
        assertThat(waiting).isNotDone();

        long released = System.nanoTime();
        holding.release();

        assertThat(waiting.get(10, TimeUnit.SECONDS)).isPresent();
        return Duration.ofNanos(System.nanoTime() - released);
    }

    @Test
    void insideAScopeOfAPathItsDescendantsJoinTheHoldAndTheSameTextInAnotherTreeDoesNot() throws Exception {
        RedisLock lock = clients.lock();
        PathLock paths = lock.tree(tree);
        PathLock otherTree = lock.tree(tree + "-other");
        PathLock stranger = clients.lock().tree(tree);

        String name = "name-" + UUID.randomUUID();
        paths.runWithLock(name, LONG, Duration.ZERO, () -> {
            long outer = LockContext.current(name).orElseThrow().fencingToken();
            LockHandle nested = paths.tryAcquire(name + "/b/c", LONG).orElseThrow();
            assertThat(nested.fencingToken()).isEqualTo(outer);
            assertThat(nested.key()).isEqualTo(name);
            otherTree.tryAcquire(name, LONG).orElseThrow();
            assertThat(clients.lock().tree(tree + "-other").tryAcquire(name, LONG))
                    .as("a hold of its own in the other tree")
                    .isEmpty();
            lock.tryAcquire(name, LONG).orElseThrow();
            assertThat(clients.lock().tryAcquire(name, LONG))
                    .as("a plain hold of its own")
                    .isEmpty();
            nested.release();
            assertThat(stranger.tryAcquire(name + "/b", LONG))
                    .as("the outer hold remains")
                    .isEmpty();
        });

        assertThat(stranger.tryAcquire(name + "/b", LONG)).isPresent();
    }

    @Test
    void pathsAreNormalizedAndInvalidOnesAreRefusedNamingTheRules() {
        PathLock lock = clients.lock().tree(tree);
        LockHandle held = lock.tryAcquire("/a/b/", LONG).orElseThrow();
        assertThat(held.key()).isEqualTo("a/b");
        assertThat(lock.tryAcquire("a/b", LONG)).isEmpty();

        for (String invalid : List.of("a//b", "a/./b", "a/..", " ", "a/ /b", "///")) {
            assertThatIllegalArgumentException()
                    .as(invalid)
                    .isThrownBy(() -> lock.tryAcquire(invalid, LONG))
                    .withMessageContaining("segment")
                    .withMessageContaining("'/'");
        }
        assertThatIllegalArgumentException()
                .isThrownBy(() -> lock.tryAcquire(String.join("/", Collections.nCopies(65, "x")), LONG))
                .withMessageContaining("at most 64 segments");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> PathLock.path("a", "b/c"))
                .withMessageContaining("without '/'");
        assertThat(PathLock.path("a", "b c", "ü")).isEqualTo("a/b c/ü");
        assertThat(PathLock.path()).isEmpty();
        RedisLock redis = clients.lock();
        assertThatIllegalArgumentException()
                .isThrownBy(() -> redis.tree("a{b}"))
                .withMessageContaining("'{' or '}'");
        assertThatIllegalArgumentException().isThrownBy(() -> redis.tree(" ")).withMessageContaining("blank");
    }

    @Test
    void anAttemptRedisDidNotAnswerInTimeLeavesNothingHeldOnceRedisAnswers() throws Exception {
        try (TestRedis redis = TestRedis.start();
                RedisClients own = new RedisClients(redis)) {
            PathLock lock = own.lock().tree(tree);
            lock.tryAcquire("warm/up", LONG).orElseThrow().release();

            redis.pause();
            try {
                assertThatThrownBy(() -> lock.tryAcquire("a/b/c", LONG)).isInstanceOf(LockBackendException.class);
                assertThatThrownBy(() -> lock.tryAcquire("a/b/d", LONG, Duration.ofMillis(100)))
                        .isInstanceOf(LockBackendException.class);
            } finally {
                redis.resume();
            }

            await().atMost(Duration.ofSeconds(10))
                    .untilAsserted(() -> assertThat(redis.command("KEYS", "{distlock:" + tree + "}/*"))
                            .isEqualTo("{distlock:" + tree + "}/fence"));
            assertThat(own.lock().tree(tree).tryAcquire("", LONG)).isPresent();
        }
    }

    @Test
    void severalPathsAreTakenSegmentBySegmentSoThatCrossingSetsNeverDeadlock() throws Exception {
        PathLock first = clients.lock().tree(tree);
        PathLock second = clients.lock().tree(tree);
        // By plain text p/q-z sorts before p/q/s ('-' before '/'): one caller would take p/q and wait for p/q-z/w while
        // the other took p/q-z and waited for p/q/s.
        assertThat(first.order(List.of("p/q-z", "p/q/s"))).containsExactly("p/q/s", "p/q-z");
        assertThat(first.order(List.of("p/q-z/w", "/p/q/", "p/q"))).containsExactly("/p/q/", "p/q-z/w");

        for (int round = 0; round < 20; round++) {
            CyclicBarrier start = new CyclicBarrier(2);
            Future<Optional<MultiLockHandle>> one =
                    threads.submit(() -> takeTogether(first, start, List.of("p/q", "p/q-z/w")));
            Future<Optional<MultiLockHandle>> other =
                    threads.submit(() -> takeTogether(second, start, List.of("p/q-z", "p/q/s")));

            assertThat(one.get(20, TimeUnit.SECONDS)).as("round %d", round).isPresent();
            assertThat(other.get(20, TimeUnit.SECONDS)).as("round %d", round).isPresent();
        }
    }

    private static Optional<MultiLockHandle> takeTogether(PathLock lock, CyclicBarrier start, List<String> paths)
            throws Exception {
        start.await(10, TimeUnit.SECONDS);
        Optional<MultiLockHandle> held = lock.tryAcquireAll(paths, LONG, Duration.ofSeconds(5));
        held.ifPresent(MultiLockHandle::release);
        return held;
    }

    @Test
    void pathsThatContainEachOtherCannotBeTakenTogether() throws Exception {
        PathLock lock = clients.lock().tree(tree);

        assertThatIllegalArgumentException()
                .isThrownBy(() -> lock.tryAcquireAll(List.of("a/b/c", "x", "a"), LONG, Duration.ZERO))
                .withMessageContaining("\"a\" contains \"a/b/c\"");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> lock.tryAcquireAll(List.of("x", ""), LONG, Duration.ZERO))
                .withMessageContaining("contain each other");
        assertThat(lock.tryAcquireAll(List.of(""), LONG, Duration.ZERO)).isPresent();
    }

    @Test
    void theKeysOfATreeShareOneHashTagAndLeaveNothingBehindOnceReleased() {
        PathLock lock = clients.lock().tree(tree);
        StringRedisTemplate redis = clients.template();
        lock.tryAcquire("x/y/z", LONG).orElseThrow().release();

        assertThat(redis.keys("{distlock:" + tree + "}*")).containsExactlyInAnyOrder("{distlock:" + tree + "}/fence");
    }
}
