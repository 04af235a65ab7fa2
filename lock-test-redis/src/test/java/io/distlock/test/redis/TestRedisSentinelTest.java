package io.distlock.test.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.distlock.test.redis.TestRedis.Provider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** Sentinel deployments from every process provider, against real servers and Sentinels. */
@Timeout(60)
class TestRedisSentinelTest {

    private static final Duration FAILOVER_WAIT = Duration.ofSeconds(20);

    @ParameterizedTest
    @EnumSource(names = {"PATH", "EMBEDDED"})
    void startsReplicatesFailsOverToAReplicaAndStopsEverything(Provider provider) {
        assumeTrue(isAvailable(provider), provider + " has no redis-server on this machine");
        List<Integer> ports = new ArrayList<>();
        long startNanos = System.nanoTime();
        try (TestRedisSentinel sentinel = TestRedisSentinel.start(provider)) {
            System.out.printf("%s started in %d ms%n", sentinel, millisSince(startNanos));
            assertThat(sentinel.provider()).isEqualTo(provider);
            assertThat(sentinel.sentinelPorts())
                    .hasSize(3)
                    .doesNotHaveDuplicates()
                    .doesNotContain(6379);
            assertThat(sentinel.sentinelNodes())
                    .containsExactlyElementsOf(sentinel.sentinelPorts().stream()
                            .map(port -> "127.0.0.1:" + port)
                            .toList());
            List<TestRedis> nodes = sentinel.nodes();
            assertThat(nodes).hasSize(3).allMatch(node -> node.provider() == provider);
            TestRedis primary = sentinel.primary();
            assertThat(primary).isSameAs(nodes.get(0));
            assertThat(sentinel.replicas()).containsExactly(nodes.get(1), nodes.get(2));
            for (TestRedis replica : sentinel.replicas()) {
                assertThat(replica.command("ROLE").split("\n")[0]).isEqualTo("slave");
            }

            primary.command("SET", "replicated", "yes");
            assertThat(primary.command("WAIT", "2", "5000")).isEqualTo("2");
            for (TestRedis replica : sentinel.replicas()) {
                assertThat(replica.command("GET", "replicated")).isEqualTo("yes");
            }

            long killNanos = System.nanoTime();
            TestRedis killed = sentinel.killPrimary();
            TestRedis promoted = sentinel.awaitFailover(FAILOVER_WAIT);
            System.out.printf("%s failed over in %d ms%n", sentinel, millisSince(killNanos));

            assertThat(killed).isSameAs(primary);
            assertThat(promoted).isIn(nodes.get(1), nodes.get(2));
            assertThat(sentinel.primary()).isSameAs(promoted);
            assertThat(sentinel.replicas()).hasSize(2).contains(killed).doesNotContain(promoted);
            assertThat(promoted.command("ROLE").split("\n")[0]).isEqualTo("master");
            assertThat(promoted.command("GET", "replicated")).isEqualTo("yes");
            assertThat(promoted.command("SET", "after-failover", "yes")).isEqualTo("OK");
            TestRedis follower = nodes.get(1) == promoted ? nodes.get(2) : nodes.get(1);
            assertThat(follower.command("INFO", "replication"))
                    .contains("role:slave", "master_port:" + promoted.port(), "master_link_status:up");

            nodes.forEach(node -> ports.add(node.port()));
            ports.addAll(sentinel.sentinelPorts());
        }
        for (int port : ports) {
            assertThat(PortProbe.isListening("127.0.0.1", port))
                    .as("port %d", port)
                    .isFalse();
        }
    }

    @Test
    void pausingThePrimaryLongerThanTheDownAfterPeriodFailsOverToo() {
        try (TestRedisSentinel sentinel = TestRedisSentinel.start()) {
            TestRedis paused = sentinel.primary();
            paused.pause();
            try {
                TestRedis promoted = sentinel.awaitFailover(FAILOVER_WAIT);

                assertThat(promoted).isNotSameAs(paused);
                assertThat(sentinel.primary()).isSameAs(promoted);
            } finally {
                paused.resume();
            }
        }
    }

    @Test
    void containersAreRefusedBecauseTheirAddressesAreUnreachableFromTheHost() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> TestRedisSentinel.start(Provider.TESTCONTAINERS))
                .withMessageContaining("PATH or EMBEDDED");
    }

    @Test
    void defaultProviderIsAProcessProvider() {
        assertThat(TestRedisSentinel.defaultProvider()).isIn(Provider.PATH, Provider.EMBEDDED);
    }

    private static boolean isAvailable(Provider provider) {
        return provider == Provider.PATH
                ? RedisExecutable.onPath().isPresent()
                : EmbeddedBinary.resourceName().isPresent();
    }

    private static long millisSince(long startNanos) {
        return Duration.ofNanos(System.nanoTime() - startNanos).toMillis();
    }
}
