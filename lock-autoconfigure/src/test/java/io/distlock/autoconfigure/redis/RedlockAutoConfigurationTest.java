package io.distlock.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockNotAcquiredException;
import io.distlock.autoconfigure.DistlockContexts;
import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.redis.RedisLock;
import io.distlock.redis.Redlock;
import io.distlock.redis.ReleaseSubscription;
import io.distlock.tck.SecretsStayOutOfOutput;
import io.distlock.test.redis.TestRedis;
import io.distlock.test.redis.TestRedis.Provider;
import io.distlock.test.redis.TlsSupport;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.SocketOptions;
import io.lettuce.core.SslVerifyMode;
import io.lettuce.core.resource.ClientResources;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientConfigurationBuilderCustomizer;
import org.springframework.boot.data.redis.autoconfigure.LettuceClientOptionsBuilderCustomizer;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The {@link Lock} bean as a {@link Redlock} over the nodes of {@code distlock.redlock.nodes}, on three real Redis
 * servers started once for the class; the application's own Redis ({@code spring.data.redis}) is the shared test
 * server, which the Redlock must leave alone.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RedlockAutoConfigurationTest {

    private static final String PASSWORD = "redlock-node-secret";

    @RegisterExtension
    static final SecretsStayOutOfOutput SECRETS = new SecretsStayOutOfOutput(PASSWORD);

    private static final Lease LEASE = Lease.fixed(Duration.ofSeconds(30));
    private static final String BUNDLE = "redlock-node";

    private static List<TestRedis> servers;

    private final String key = "redlock-autoconfig:" + UUID.randomUUID();

    @BeforeAll
    static void startNodes() {
        servers = Stream.of(TestRedis.builder().password(PASSWORD), TestRedis.builder(), TestRedis.builder())
                .parallel()
                .map(TestRedis.Builder::start)
                .toList();
    }

    @AfterAll
    static void stopNodes() {
        if (servers != null) {
            servers.forEach(TestRedis::close);
        }
    }

    /** The Redlock alone, without Spring Boot's Redis auto-configuration and so without an application connection. */
    private static ApplicationContextRunner withoutSpringBootsRedis() {
        TestRedis first = servers.get(0);
        return new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DistributedLockAutoConfiguration.class))
                .withPropertyValues(
                        "distlock.shutdown.grace-period=0s",
                        "distlock.redlock.nodes[0].url=redis://:" + PASSWORD + "@" + first.host() + ":" + first.port(),
                        "distlock.redlock.nodes[1].url=" + url(servers.get(1)),
                        "distlock.redlock.nodes[2].url=" + url(servers.get(2)));
    }

    /**
     * For the tests that look at every node: a node that does not answer within its timeouts is a vote against and
     * never gets the key, so each node is given time to answer, a first connection on a loaded single core included.
     */
    private static final String[] EVERY_NODE_ANSWERS = {
        "distlock.redlock.timeout=10s", "distlock.redlock.connect-timeout=10s"
    };

    /** The first node's password is in its URL, to show that the URL's user information is read. */
    private static ApplicationContextRunner runner() {
        TestRedis first = servers.get(0);
        return DistlockContexts.onSharedRedis()
                .withPropertyValues(
                        "distlock.shutdown.grace-period=0s",
                        "distlock.redlock.nodes[0].url=redis://:" + PASSWORD + "@" + first.host() + ":" + first.port(),
                        "distlock.redlock.nodes[1].url=" + url(servers.get(1)),
                        "distlock.redlock.nodes[2].url=" + url(servers.get(2)));
    }

    @Test
    void theLockBeanIsARedlockOverTheThreeNodesWithTheDistlockSettings() {
        runner().withPropertyValues(
                        "distlock.key-prefix=orders:",
                        "distlock.watchdog.lease=9s",
                        "distlock.watchdog.renew-interval=2s",
                        "distlock.shutdown.grace-period=3s",
                        "distlock.redlock.clock-drift-factor=0.05")
                .run(context -> {
                    assertThat(context).hasSingleBean(Lock.class);
                    Redlock lock = context.getBean(Redlock.class);
                    assertThat(lock.nodes()).isEqualTo(3);
                    assertThat(lock.quorum()).isEqualTo(2);
                    assertThat(lock.keyPrefix()).isEqualTo("orders:");
                    assertThat(lock.watchdogLease()).isEqualTo(Duration.ofSeconds(9));
                    assertThat(lock.renewInterval()).isEqualTo(Duration.ofSeconds(2));
                    assertThat(lock.shutdownGracePeriod()).isEqualTo(Duration.ofSeconds(3));
                    assertThat(lock.clockDriftFactor()).isEqualTo(0.05);
                });
    }

    @Test
    void theSingleNodeLockIsNotCreatedAndTheApplicationsRedisStaysAsItWas() {
        runner().run(context -> {
            assertThat(context).doesNotHaveBean(RedisLock.class);
            assertThat(context).doesNotHaveBean(ReleaseSubscription.class);
            // Only Spring Boot's own factory, on spring.data.redis: the nodes' factories are not beans.
            assertThat(context).hasSingleBean(RedisConnectionFactory.class);
            LettuceConnectionFactory application = context.getBean(LettuceConnectionFactory.class);
            assertThat(application.getPort()).isEqualTo(TestRedis.shared().port());
            assertThat(context.getBean(Redlock.class).clockDriftFactor()).isEqualTo(0.01);
        });
    }

    @Test
    void backsOffToTheApplicationsOwnLockWithoutCreatingTheNodes() {
        runner().withUserConfiguration(OwnLockConfiguration.class).run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context.getBean(Lock.class)).isSameAs(context.getBean("ownLock"));
            assertThat(context).doesNotHaveBean(Redlock.class);
            assertThat(context).doesNotHaveBean(RedlockNodes.class);
        });
    }

    @Test
    void disabledDistlockCreatesNoRedlock() {
        runner().withPropertyValues("distlock.enabled=false").run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(Lock.class);
            assertThat(context).doesNotHaveBean(RedlockNodes.class);
        });
    }

    @Test
    void acquiringAKeyWritesItOnEveryNodeAndReleasingRemovesItEverywhere() {
        runner().withPropertyValues(EVERY_NODE_ANSWERS).run(context -> {
            LockHandle held = context.getBean(Lock.class).tryAcquire(key, LEASE).orElseThrow();

            assertWrittenOnEveryNode(servers, key, held);
            assertThat(TestRedis.shared().command("EXISTS", lockKey())).isEqualTo("0");

            held.release();
            assertRemovedFromEveryNode(servers, key);
        });
    }

    @Test
    void annotatedMethodsRunUnderTheRedlock() {
        runner().withPropertyValues(EVERY_NODE_ANSWERS).withBean(Stock.class).run(context -> {
            Stock stock = context.getBean(Stock.class);

            assertThat(stock.deduct(key)).isEqualTo("deducted");

            assertThat(stock.lastHold()).isNotNull();
            assertRemovedFromEveryNode(servers, key);
        });
    }

    /**
     * A job guarded with no wait, as a {@code @Scheduled} method is, that three instances start at the same moment on
     * three threads each: in every round exactly one caller runs it, whatever way the nodes' votes split. Before
     * Redlock settled split votes within the attempt, every caller of a round could lose, and the job was skipped.
     */
    @Test
    void aJobGuardedWithNoWaitRunsOnceInEveryRoundWhenThreeInstancesStartItTogether() {
        int rounds = 20;
        int threadsPerInstance = 3;
        runner().withBean(NightlyJob.class)
                .run(first -> runner().withBean(NightlyJob.class)
                        .run(second -> runner().withBean(NightlyJob.class).run(third -> {
                            List<NightlyJob> instances = List.of(
                                    first.getBean(NightlyJob.class),
                                    second.getBean(NightlyJob.class),
                                    third.getBean(NightlyJob.class));
                            int callers = instances.size() * threadsPerInstance;
                            ExecutorService threads = Executors.newFixedThreadPool(callers);
                            try {
                                Map<Integer, Integer> runsByRound = new TreeMap<>();
                                for (int round = 1; round <= rounds; round++) {
                                    runsByRound.put(
                                            round,
                                            playRound(key + ":" + round, instances, threadsPerInstance, threads));
                                }
                                assertThat(runsByRound.entrySet().stream()
                                                .filter(round -> round.getValue() != 1)
                                                .map(Map.Entry::getKey)
                                                .toList())
                                        .as("rounds in which the job did not run exactly once: %s", runsByRound)
                                        .isEmpty();
                            } finally {
                                threads.shutdownNow();
                            }
                        })));
    }

    /**
     * Every caller waits at a barrier and then calls the job; the one that runs it keeps the lock until every other
     * caller was refused, so that none can run it after a release.
     *
     * @return how many callers ran the job
     */
    private static int playRound(
            String round, List<NightlyJob> instances, int threadsPerInstance, ExecutorService threads)
            throws Exception {
        int callers = instances.size() * threadsPerInstance;
        NightlyJob.refused.put(round, new CountDownLatch(callers - 1));
        NightlyJob.ran.put(round, new AtomicInteger());
        CyclicBarrier start = new CyclicBarrier(callers);
        List<Future<?>> calls = new ArrayList<>();
        for (int caller = 0; caller < callers; caller++) {
            NightlyJob job = instances.get(caller % instances.size());
            calls.add(threads.submit(() -> {
                start.await(10, TimeUnit.SECONDS);
                try {
                    job.run(round);
                } catch (LockNotAcquiredException refused) {
                    NightlyJob.refused.get(round).countDown();
                }
                return null;
            }));
        }
        for (Future<?> call : calls) {
            call.get(30, TimeUnit.SECONDS);
        }
        return NightlyJob.ran.get(round).get();
    }

    /**
     * After the context closed, the Redlock has stopped and every connection it had to a node, commands and release
     * subscription alike, is gone: the nodes' factories were destroyed with it.
     */
    @Test
    void theRedlockAndItsConnectionsCloseWithTheContext() {
        List<Long> clientsBefore = servers.stream()
                .map(RedlockAutoConfigurationTest::connectedClients)
                .toList();
        AtomicReference<Redlock> closed = new AtomicReference<>();

        runner().run(context -> {
            Redlock lock = context.getBean(Redlock.class);
            closed.set(lock);
            try (LockHandle held = lock.tryAcquire(key, LEASE).orElseThrow()) {
                assertThat(held.isHeld()).isTrue();
            }
            assertThat(lock.isRunning()).isTrue();
            for (int i = 0; i < servers.size(); i++) {
                assertThat(connectedClients(servers.get(i))).isGreaterThan(clientsBefore.get(i));
            }
        });

        assertThat(closed.get().isRunning()).isFalse();
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            for (int i = 0; i < servers.size(); i++) {
                assertThat(connectedClients(servers.get(i))).isEqualTo(clientsBefore.get(i));
            }
        });
    }

    /** The nodes' clients run on Spring Boot's Lettuce resources, with the application's tracing and reconnect delay. */
    @Test
    void theNodesShareTheApplicationsClientResources() {
        runner().run(context -> {
            ClientResources applications = context.getBean(ClientResources.class);
            for (LettuceConnectionFactory node :
                    context.getBean(RedlockNodes.class).factories()) {
                assertThat(node.getClientConfiguration().getClientResources()).containsSame(applications);
            }
            context.getBean(Lock.class).tryAcquire(key, LEASE).orElseThrow().release();
            assertRemovedFromEveryNode(servers, key);
        });
    }

    @Test
    void withoutSpringBootsRedisEachNodeHasResourcesOfItsOwn() {
        withoutSpringBootsRedis().run(context -> {
            assertThat(context).doesNotHaveBean(ClientResources.class);
            for (LettuceConnectionFactory node :
                    context.getBean(RedlockNodes.class).factories()) {
                assertThat(node.getClientConfiguration().getClientResources()).isEmpty();
            }
            context.getBean(Lock.class).tryAcquire(key, LEASE).orElseThrow().release();
            assertRemovedFromEveryNode(servers, key);
        });
    }

    /**
     * The application's Lettuce customizers apply to every node, as to the application's own connection; the settings
     * the Redlock relies on win over them.
     */
    @Test
    void theApplicationsCustomizersApplyToEveryNodeAndTheRedlocksSettingsWin() {
        List<String> calls = new CopyOnWriteArrayList<>();
        // Without an application connection, whose client the customizers would customize too.
        withoutSpringBootsRedis()
                .withPropertyValues("distlock.redlock.timeout=1500ms", "distlock.redlock.connect-timeout=700ms")
                .withBean(LettuceClientOptionsBuilderCustomizer.class, () -> options -> {
                    calls.add("options");
                    options.socketOptions(SocketOptions.builder()
                                    .keepAlive(true)
                                    .connectTimeout(Duration.ofSeconds(30))
                                    .build())
                            .disconnectedBehavior(ClientOptions.DisconnectedBehavior.ACCEPT_COMMANDS);
                })
                .withBean(LettuceClientConfigurationBuilderCustomizer.class, () -> client -> {
                    calls.add("configuration");
                    client.clientName("orders").commandTimeout(Duration.ofSeconds(60));
                })
                .run(context -> {
                    List<LettuceConnectionFactory> nodes =
                            context.getBean(RedlockNodes.class).factories();
                    assertThat(calls)
                            .as("each customizer once per node, the options first")
                            .containsExactly(
                                    "options", "configuration", "options", "configuration", "options", "configuration");
                    for (LettuceConnectionFactory node : nodes) {
                        LettuceClientConfiguration client = node.getClientConfiguration();
                        assertThat(client.getClientName()).contains("orders");
                        assertThat(client.getCommandTimeout()).isEqualTo(Duration.ofMillis(1500));
                        ClientOptions options = client.getClientOptions().orElseThrow();
                        assertThat(options.getSocketOptions().isKeepAlive()).isTrue();
                        assertThat(options.getSocketOptions().getConnectTimeout())
                                .isEqualTo(Duration.ofMillis(700));
                        assertThat(options.getDisconnectedBehavior())
                                .isEqualTo(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
                        assertThat(options.getTimeoutOptions().isTimeoutCommands())
                                .isTrue();
                    }
                    context.getBean(Lock.class)
                            .tryAcquire(key, LEASE)
                            .orElseThrow()
                            .release();
                    assertRemovedFromEveryNode(servers, key);
                    assertThat(servers.get(1).command("CLIENT", "LIST")).contains("name=orders");
                });
    }

    /** A configuration customizer that replaces the client options keeps its own, under the Redlock's. */
    @Test
    void aCustomizerThatReplacesTheOptionsKeepsThemUnderTheRedlocks() {
        runner().withBean(
                        LettuceClientConfigurationBuilderCustomizer.class,
                        () -> client -> client.clientOptions(
                                ClientOptions.builder().autoReconnect(false).build()))
                .run(context -> {
                    for (LettuceConnectionFactory node :
                            context.getBean(RedlockNodes.class).factories()) {
                        ClientOptions options =
                                node.getClientConfiguration().getClientOptions().orElseThrow();
                        assertThat(options.isAutoReconnect()).isFalse();
                        assertThat(options.getDisconnectedBehavior())
                                .isEqualTo(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS);
                        assertThat(options.getSocketOptions().getConnectTimeout())
                                .isEqualTo(Duration.ofSeconds(2));
                        assertThat(node.getClientConfiguration().getCommandTimeout())
                                .isEqualTo(Duration.ofSeconds(2));
                    }
                });
    }

    /**
     * A customizer that turns TLS on without peer verification, as an application might for its own Redis, changes no
     * node's TLS: a redis:// node stays plain and works, and a rediss:// node verifies its server fully.
     */
    @Test
    void aCustomizerThatLoosensTlsLeavesEveryNodesTlsAsItsSettingsSay() {
        TestRedis first = servers.get(0);
        withoutSpringBootsRedis()
                .withPropertyValues(
                        "distlock.redlock.nodes[0].url=rediss://:" + PASSWORD + "@" + first.host() + ":" + first.port())
                .withBean(
                        LettuceClientConfigurationBuilderCustomizer.class,
                        () -> client ->
                                client.useSsl().disablePeerVerification().startTls())
                .run(context -> {
                    List<LettuceConnectionFactory> nodes =
                            context.getBean(RedlockNodes.class).factories();
                    LettuceClientConfiguration secure = nodes.get(0).getClientConfiguration();
                    assertThat(secure.isUseSsl()).isTrue();
                    assertThat(secure.getVerifyMode()).isEqualTo(SslVerifyMode.FULL);
                    assertThat(secure.isStartTls()).isFalse();
                    for (LettuceConnectionFactory plain : nodes.subList(1, 3)) {
                        assertThat(plain.getClientConfiguration().isUseSsl()).isFalse();
                    }
                });
    }

    /**
     * One node is reached over TLS, trusting its certificate through a Spring Boot SSL bundle; the other two are the
     * class's plain servers. Its server comes from the {@code PATH}, since only local processes get TLS.
     */
    @Test
    void oneNodeOverTlsThroughAnSslBundle() {
        TlsSupport tls = TestRedis.tlsSupport(Provider.PATH);
        assumeTrue(tls.available(), tls.reason());
        try (TestRedis secure =
                TestRedis.builder().provider(Provider.PATH).tls().start()) {
            DistlockContexts.onSharedRedis()
                    .withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class))
                    .withPropertyValues(
                            "spring.ssl.bundle.pem." + BUNDLE + ".truststore.certificate="
                                    + secure.certificates().caCertificate().toUri(),
                            "distlock.shutdown.grace-period=0s",
                            "distlock.redlock.nodes[0].url=rediss://" + secure.host() + ":" + secure.tlsPort(),
                            "distlock.redlock.nodes[0].ssl.bundle=" + BUNDLE,
                            "distlock.redlock.nodes[1].url=" + url(servers.get(1)),
                            "distlock.redlock.nodes[2].url=" + url(servers.get(2)))
                    .withPropertyValues(EVERY_NODE_ANSWERS)
                    .run(context -> {
                        LockHandle held = context.getBean(Lock.class)
                                .tryAcquire(key, LEASE)
                                .orElseThrow();

                        // Checked on the plain port, which only the test uses.
                        assertWrittenOnEveryNode(List.of(secure, servers.get(1), servers.get(2)), key, held);

                        held.release();
                        assertRemovedFromEveryNode(List.of(secure, servers.get(1), servers.get(2)), key);
                    });
        }
    }

    /**
     * The grant counts once a majority answered, so the last node may still be writing, on a first connection even
     * connecting, when the acquisition returns: it must hold the same owner's key soon after.
     */
    private static void assertWrittenOnEveryNode(List<TestRedis> nodes, String key, LockHandle held) {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            for (TestRedis node : nodes) {
                assertThat(node.command("GET", "{distlock:" + key + "}"))
                        .as(node.description())
                        .startsWith(held.ownerToken());
            }
        });
    }

    /** Like the grant, a release counts once a majority confirmed it; the last node must follow soon after. */
    private static void assertRemovedFromEveryNode(List<TestRedis> nodes, String key) {
        await().atMost(Duration.ofSeconds(10)).untilAsserted(() -> {
            for (TestRedis node : nodes) {
                assertThat(node.command("EXISTS", "{distlock:" + key + "}"))
                        .as(node.description())
                        .isEqualTo("0");
            }
        });
    }

    private static String url(TestRedis server) {
        return "redis://" + server.host() + ":" + server.port();
    }

    private String lockKey() {
        return "{distlock:" + key + "}";
    }

    private static long connectedClients(TestRedis server) {
        Matcher clients = Pattern.compile("connected_clients:(\\d+)").matcher(server.command("INFO", "clients"));
        assertThat(clients.find()).isTrue();
        return Long.parseLong(clients.group(1));
    }

    @Configuration(proxyBeanMethods = false)
    static class OwnLockConfiguration {

        @Bean
        RedisLock ownLock(RedisConnectionFactory connectionFactory) {
            return RedisLock.builder(connectionFactory).keyPrefix("own:").build();
        }
    }

    /** A job that must not be skipped, guarded as a {@code @Scheduled} method with {@code waitSeconds = 0} is. */
    public static class NightlyJob {

        static final Map<String, CountDownLatch> refused = new ConcurrentHashMap<>();
        static final Map<String, AtomicInteger> ran = new ConcurrentHashMap<>();

        @DistributedLock(key = "#round", waitSeconds = 0)
        public void run(String round) throws InterruptedException {
            ran.get(round).incrementAndGet();
            // Holds the lock until every other caller of the round was refused; never longer than a moment.
            refused.get(round).await(10, TimeUnit.SECONDS);
        }
    }

    /** An annotated bean that looks at every node while it holds its lock. */
    public static class Stock {

        private final AtomicReference<LockHandle> heldBy = new AtomicReference<>();

        @DistributedLock(key = "#sku")
        public String deduct(String sku) {
            LockHandle held = LockContext.current(sku).orElseThrow();
            heldBy.set(held);
            assertWrittenOnEveryNode(servers, sku, held);
            return "deducted";
        }

        public LockHandle lastHold() {
            return heldBy.get();
        }
    }
}
