package io.distlock.bench.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.bench.contender.Contender;
import io.distlock.bench.contender.Contender.Release;
import io.distlock.bench.contender.ContenderKind;
import io.distlock.bench.contender.RedisNodes;
import io.distlock.bench.contender.Topology;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The cluster target in seconds, without worker JVMs: every contender connects in its cluster mode and locks keys
 * spread over all masters, and the harness's command counts and MONITOR probe see the work of every node. The full run
 * is the {@code benchmarks} profile with {@code -Dbench.target=cluster}.
 */
@Timeout(value = 1, unit = TimeUnit.MINUTES)
class ClusterTargetTest {

    /** Enough keys that each of the three masters serves several of them. */
    private static final int KEYS = 30;

    private static final Duration LEASE = Duration.ofSeconds(30);
    private static final Duration WAIT = Duration.ofSeconds(5);
    private static final Duration NO_WAIT = Duration.ofMillis(100);

    private static RedisTarget target;

    @BeforeAll
    static void startCluster() {
        target = RedisTarget.open(null, Topology.CLUSTER);
    }

    @AfterAll
    static void stopCluster() {
        target.close();
    }

    @Test
    void theTargetIsAClusterOfThreeMastersAndSaysSo() {
        RedisNodes nodes = target.nodes();

        assertThat(nodes.isCluster()).isTrue();
        assertThat(nodes.nodes()).hasSize(RedisTarget.CLUSTER_MASTERS);
        assertThat(RedisNodes.fromArguments(nodes.arguments())).isEqualTo(nodes);
        assertThat(target.provider()).startsWith("Redis Cluster of 3 masters without replicas");
    }

    /**
     * A Redlock locks on independent masters of its own, never on the target, so these tests leave it out. The seed
     * folder lock cannot run on a cluster: its script's two keys, the lock and the project's hash, fall in different
     * slots; the benchmark lists it as unable to run there. The contenders on PostgreSQL and ZooKeeper lock on no Redis.
     */
    @ParameterizedTest
    @EnumSource(
            value = ContenderKind.class,
            mode = EnumSource.Mode.EXCLUDE,
            names = {
                "REDLOCK_3",
                "REDLOCK_5",
                "SEED_FOLDER",
                "DISTLOCK_JDBC",
                "SI_JDBC",
                "DISTLOCK_ZOOKEEPER",
                "CURATOR_MUTEX",
                "DISTLOCK_JDBC_FAIR",
                "DISTLOCK_JDBC_RW",
                "DISTLOCK_JDBC_SEMAPHORE",
                "DISTLOCK_ZOOKEEPER_SEMAPHORE",
                "CURATOR_SEMAPHORE",
                "DISTLOCK_ZOOKEEPER_RW",
                "CURATOR_RW"
            })
    void everyContenderLocksKeysOnEveryMasterAndTheHarnessCountsAllOfThem(ContenderKind kind) throws Exception {
        try (RedisInfo info = new RedisInfo(target.nodes());
                Contender contender = kind.create(target.nodes())) {
            String prefix = "bench-cluster-test:" + kind.id() + ":" + UUID.randomUUID() + ":";
            CommandCounts before = info.commandCounts();
            MonitorCounts seen;
            try (CommandMonitor monitor = CommandMonitor.start(info)) {
                for (int i = 0; i < KEYS; i++) {
                    Release release = contender.tryAcquire(prefix + i, LEASE, WAIT);
                    assertThat(release)
                            .as("%s took fresh key %d", kind.label(), i)
                            .isNotNull();
                    release.release();
                }
                seen = monitor.awaitCounts();
            }

            // Every key took at least one command to acquire and one to release, wherever its master is.
            assertThat(info.commandCounts().since(before).lockWorkTotal()).isGreaterThanOrEqualTo(2L * KEYS);
            assertThat(seen.topLevelTotal()).isGreaterThanOrEqualTo(2L * KEYS);
        }
    }

    @ParameterizedTest
    @EnumSource(
            value = ContenderKind.class,
            mode = EnumSource.Mode.EXCLUDE,
            names = {
                "BASELINE",
                "REDLOCK_3",
                "REDLOCK_5",
                "SEED_FOLDER",
                "DISTLOCK_JDBC",
                "SI_JDBC",
                "DISTLOCK_ZOOKEEPER",
                "CURATOR_MUTEX",
                "DISTLOCK_JDBC_FAIR",
                "DISTLOCK_JDBC_RW",
                "DISTLOCK_JDBC_SEMAPHORE",
                "DISTLOCK_ZOOKEEPER_SEMAPHORE",
                "CURATOR_SEMAPHORE",
                "DISTLOCK_ZOOKEEPER_RW",
                "CURATOR_RW"
            })
    void aHeldKeyIsNotTakenByAnotherClientOfTheSameLock(ContenderKind kind) throws Exception {
        try (Contender holder = kind.create(target.nodes());
                Contender other = kind.create(target.nodes())) {
            String key = "bench-cluster-test:held:" + kind.id() + ":" + UUID.randomUUID();
            // A semaphore's key is held once every permit is.
            List<Release> releases = new ArrayList<>();
            for (int held = 0; held < (kind.isSemaphore() ? ContenderKind.SEMAPHORE_PERMITS : 1); held++) {
                releases.add(holder.tryAcquire(key, LEASE, WAIT));
            }
            assertThat(releases).doesNotContainNull();
            // Connected first: a client's first call also discovers the cluster, which may take longer than NO_WAIT.
            tryAcquire(other, key + ":connect", WAIT).release();

            // Another thread as well as another client: some peers let their acquiring thread re-enter.
            CompletableFuture<Release> attempt = CompletableFuture.supplyAsync(() -> {
                Release got = tryAcquire(other, key, NO_WAIT);
                if (got != null && kind.waitsWithoutLimit()) {
                    // A view is unlocked by the thread that locked it; the attempt's result still shows whether it got
                    // the key while it was held.
                    got.release();
                }
                return got;
            });
            Release taken = null;
            try {
                taken = attempt.get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
            } catch (TimeoutException stillWaiting) {
                assertThat(kind.waitsWithoutLimit())
                        .as("%s's attempt neither took the held key nor gave up", kind.label())
                        .isTrue();
            }

            assertThat(taken)
                    .as("%s gave a held key to a second client", kind.label())
                    .isNull();
            releases.forEach(Release::release);
            if (kind.waitsWithoutLimit()) {
                assertThat(attempt.get(WAIT.toMillis(), TimeUnit.MILLISECONDS))
                        .as("%s's waiting attempt, once the key was released", kind.label())
                        .isNotNull();
            }
        }
    }

    @Test
    void aServerUriCannotBeCombinedWithTheClusterTarget() {
        assertThatThrownBy(() -> RedisTarget.open("redis://127.0.0.1:6380", Topology.CLUSTER))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("bench.redis")
                .hasMessageContaining("bench.target=cluster");
    }

    @Test
    void anUnknownTargetNamesTheAllowedOnes() {
        assertThatThrownBy(() -> Topology.target("sentinel"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown target 'sentinel'; allowed: [standalone, cluster]");
    }

    @Test
    void independentMastersAreNoTargetOfAWholeRun() {
        assertThatThrownBy(() -> Topology.target("independent"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("unknown target 'independent'; allowed: [standalone, cluster]");
    }

    private static Release tryAcquire(Contender contender, String key, Duration wait) {
        try {
            return contender.tryAcquire(key, LEASE, wait);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
