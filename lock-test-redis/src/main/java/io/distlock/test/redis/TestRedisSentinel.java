package io.distlock.test.redis;

import io.distlock.tck.net.FreePorts;
import io.distlock.test.redis.TestRedis.Provider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A throwaway Redis Sentinel deployment for tests: one primary, two replicas and three Sentinels, all real {@code
 * redis-server} processes on free loopback ports (never 6379).
 *
 * <pre>{@code
 * try (TestRedisSentinel sentinel = TestRedisSentinel.start()) {
 *     RedisSentinelConfiguration config =
 *             new RedisSentinelConfiguration(sentinel.masterName(), Set.copyOf(sentinel.sentinelNodes()));
 *     ...
 *     TestRedis former = sentinel.killPrimary();
 *     TestRedis promoted = sentinel.awaitFailover(Duration.ofSeconds(15));
 * }
 * }</pre>
 *
 * <p>The Sentinels monitor the primary under {@link #masterName()} with a quorum of two, consider it down after
 * {@value #DOWN_AFTER_MILLIS} ms without an answer, and use a failover timeout of {@value #FAILOVER_TIMEOUT_MILLIS} ms,
 * so a failover takes a few seconds. {@link #start()} returns only once every Sentinel knows the primary, both
 * replicas and the other two Sentinels, so a failover can start at once.
 *
 * <p>Only process providers run a deployment ({@link Provider#PATH} or {@link Provider#EMBEDDED}): in containers,
 * Sentinels would hand out addresses inside Docker's network, which a client on the host cannot reach. Data nodes are
 * plain {@link TestRedis} servers without a password; {@link TestRedis#pause()}, {@link TestRedis#kill()} and {@link
 * TestRedis#startAgain()} work on them as usual (a node started again comes back in the role it was started with, with
 * no data, until the Sentinels reconfigure it). Instances are thread-safe.
 */
public final class TestRedisSentinel implements AutoCloseable {

    /** How long the Sentinels wait for an answer from the primary before they consider it down. */
    public static final long DOWN_AFTER_MILLIS = 1000;

    /** The Sentinels' {@code failover-timeout}: a failover that stalls is tried again after twice as long. */
    public static final long FAILOVER_TIMEOUT_MILLIS = 3000;

    private static final String MASTER_NAME = "distlock-primary";
    private static final int REPLICAS = 2;
    private static final int SENTINELS = 3;
    private static final int QUORUM = 2;

    private final Provider provider;
    private final List<TestRedis> nodes = new ArrayList<>();
    private final List<ProcessBackend> sentinels = new ArrayList<>();
    /** The primary as of start or the last {@link #awaitFailover}: the one a failover must replace. */
    private TestRedis confirmedPrimary;

    private boolean closed;

    private TestRedisSentinel(Provider provider) {
        this.provider = provider;
    }

    /**
     * Starts a deployment from {@link #defaultProvider()}.
     *
     * @return the running deployment, with every Sentinel ready to fail over; close it when the test is done
     * @throws IllegalStateException if a server cannot start or the Sentinels do not find each other in time
     */
    public static TestRedisSentinel start() {
        return start(defaultProvider());
    }

    /**
     * Starts a deployment whose servers and Sentinels all come from {@code provider}.
     *
     * @param provider {@link Provider#PATH} or {@link Provider#EMBEDDED}
     * @return the running deployment, with every Sentinel ready to fail over; close it when the test is done
     * @throws IllegalArgumentException for {@link Provider#TESTCONTAINERS}
     * @throws IllegalStateException if a server cannot start or the Sentinels do not find each other in time
     */
    public static TestRedisSentinel start(Provider provider) {
        if (Objects.requireNonNull(provider, "provider") == Provider.TESTCONTAINERS) {
            throw new IllegalArgumentException("A Sentinel deployment runs only as local processes (PATH or EMBEDDED):"
                    + " Sentinels in containers would name addresses that clients on the host cannot reach");
        }
        TestRedisSentinel deployment = new TestRedisSentinel(provider);
        try {
            deployment.startAll();
            return deployment;
        } catch (RuntimeException e) {
            deployment.close();
            throw e;
        }
    }

    /**
     * Returns the provider that {@link #start()} uses: {@link TestRedis#defaultProvider()} when that is a process
     * provider, and otherwise (Docker) {@link Provider#PATH} if a {@code redis-server} is on the PATH, else {@link
     * Provider#EMBEDDED}.
     *
     * @return {@link Provider#PATH} or {@link Provider#EMBEDDED}
     */
    public static Provider defaultProvider() {
        return ProviderSelection.defaultProcessProvider();
    }

    /**
     * Returns where the servers and Sentinels came from.
     *
     * @return {@link Provider#PATH} or {@link Provider#EMBEDDED}
     */
    public Provider provider() {
        return provider;
    }

    /**
     * Returns the name under which the Sentinels monitor the primary, as clients must name it.
     *
     * @return the master name, for {@code spring.data.redis.sentinel.master}
     */
    public String masterName() {
        return MASTER_NAME;
    }

    /**
     * Returns the host every server and Sentinel listens on.
     *
     * @return {@code 127.0.0.1}
     */
    public String host() {
        return FreePorts.LOOPBACK_HOST;
    }

    /**
     * Returns the ports of the three Sentinels.
     *
     * @return the ports, in start order
     */
    public synchronized List<Integer> sentinelPorts() {
        return sentinels.stream().map(ProcessBackend::port).toList();
    }

    /**
     * Returns the Sentinels' addresses as clients list them.
     *
     * @return {@code host:port} of each Sentinel, for {@code spring.data.redis.sentinel.nodes} (joined by commas) or
     *     {@code RedisSentinelConfiguration}
     */
    public List<String> sentinelNodes() {
        return sentinelPorts().stream().map(port -> host() + ":" + port).toList();
    }

    /**
     * Returns the three data nodes, whatever their role now.
     *
     * @return the servers in start order: the first was the primary at start
     */
    public synchronized List<TestRedis> nodes() {
        return List.copyOf(nodes);
    }

    /**
     * Returns the data node that the first Sentinel to answer names as the primary. While a failover is under way,
     * Sentinels may disagree; {@link #awaitFailover(Duration)} waits until they do not.
     *
     * @return the current primary
     * @throws IllegalStateException if no Sentinel answers, or one names a server that is not part of this deployment
     */
    public synchronized TestRedis primary() {
        for (ProcessBackend sentinel : sentinels) {
            Optional<Integer> port = queries(sentinel).primaryPort();
            if (port.isPresent()) {
                return node(port.get());
            }
        }
        throw new IllegalStateException("No Sentinel of " + this + " names a primary");
    }

    /**
     * Returns the data nodes other than {@link #primary()}, including a former primary that was killed and not started
     * again.
     *
     * @return the replicas, in start order
     */
    public synchronized List<TestRedis> replicas() {
        TestRedis primary = primary();
        return nodes.stream().filter(node -> node != primary).toList();
    }

    /**
     * Kills the current {@link #primary()} abruptly (SIGKILL) and returns once its port refuses connections; the
     * Sentinels then fail over. Writes that had not reached a replica are lost.
     *
     * @return the killed server, which {@link TestRedis#startAgain()} can bring back
     */
    public synchronized TestRedis killPrimary() {
        TestRedis primary = primary();
        primary.kill();
        return primary;
    }

    /**
     * Waits until every Sentinel names the same primary, other than the one at start or at the previous call, that
     * server reports {@code role:master}, and every other node that answers replicates from it. Works whatever made
     * the old primary fail: {@link #killPrimary()}, or {@link TestRedis#pause()} for longer than {@value
     * #DOWN_AFTER_MILLIS} ms. Once it returns, the next failover can start.
     *
     * @param timeout how long to wait at most
     * @return the promoted primary
     * @throws IllegalStateException if the Sentinels did not agree on a new primary within {@code timeout}, with what
     *     each of them named last
     */
    public synchronized TestRedis awaitFailover(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            List<Optional<Integer>> named = sentinels.stream()
                    .map(sentinel -> queries(sentinel).primaryPort())
                    .toList();
            Optional<TestRedis> promoted =
                    agreed(named).map(this::node).filter(node -> node != confirmedPrimary && isSettled(node));
            if (promoted.isPresent()) {
                confirmedPrimary = promoted.get();
                return confirmedPrimary;
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("The Sentinels of " + this + " did not replace " + confirmedPrimary
                        + " within " + timeout + "; they name primaries on ports " + named + sentinelLogs());
            }
            PortProbe.sleepPollInterval();
        }
    }

    /**
     * Stops the Sentinels, then the data nodes, and deletes their temp directories; calling it again does nothing.
     * Sentinels go first so that they do not fail over while the servers stop.
     */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        RuntimeException failure = null;
        for (ProcessBackend sentinel : sentinels) {
            failure = attempt(sentinel::stop, failure);
            LiveServers.remove(sentinel);
        }
        for (TestRedis node : nodes) {
            failure = attempt(node::close, failure);
        }
        if (failure != null) {
            throw failure;
        }
    }

    /**
     * Describes the deployment for test output and assertion messages.
     *
     * @return the master name, provider and ports of nodes and Sentinels
     */
    @Override
    public synchronized String toString() {
        return "Sentinel deployment '" + MASTER_NAME + "' from " + provider + " (nodes on ports "
                + nodes.stream().map(node -> Integer.toString(node.port())).collect(Collectors.joining(", "))
                + "; Sentinels on ports "
                + sentinels.stream()
                        .map(sentinel -> Integer.toString(sentinel.port()))
                        .collect(Collectors.joining(", "))
                + ")";
    }

    private synchronized void startAll() {
        TestRedis primary = startNode();
        confirmedPrimary = primary;
        for (int i = 0; i < REPLICAS; i++) {
            startNode("replicaof " + primary.host() + " " + primary.port());
        }
        // A Sentinel learns the replicas from the primary's INFO, which it asks for at once and then only every 10 s.
        awaitReplicasOnline(primary);
        RedisExecutable executable = executable();
        for (int i = 0; i < SENTINELS; i++) {
            ProcessBackend sentinel = ProcessBackend.startSentinel(
                    executable, new ServerOptions(null, List.of(), null), sentinelConfig(primary));
            LiveServers.add(sentinel);
            sentinels.add(sentinel);
        }
        awaitSentinelsReady(primary);
    }

    private TestRedis startNode(String... directives) {
        TestRedis node = TestRedis.builder()
                .provider(provider)
                // Redis 7 delays a full sync by 5 s to serve several replicas at once; these tests cannot wait so long.
                .configLine("repl-diskless-sync yes", "repl-diskless-sync-delay 0")
                .configLine(directives)
                .start();
        nodes.add(node);
        return node;
    }

    private RedisExecutable executable() {
        return ServerLaunch.executable(provider);
    }

    private List<String> sentinelConfig(TestRedis primary) {
        return List.of(
                "sentinel monitor " + MASTER_NAME + " " + primary.host() + " " + primary.port() + " " + QUORUM,
                "sentinel down-after-milliseconds " + MASTER_NAME + " " + DOWN_AFTER_MILLIS,
                "sentinel failover-timeout " + MASTER_NAME + " " + FAILOVER_TIMEOUT_MILLIS);
    }

    private void awaitReplicasOnline(TestRedis primary) {
        SentinelReadiness.await(
                "both replicas to finish their first sync with " + primary,
                () -> ReplicationProbe.onlineReplicas(primary) == REPLICAS);
    }

    private void awaitSentinelsReady(TestRedis primary) {
        for (ProcessBackend sentinel : sentinels) {
            SentinelQueries queries = queries(sentinel);
            SentinelReadiness.await(
                    sentinel.description() + " to know the primary, " + REPLICAS + " replicas and " + (SENTINELS - 1)
                            + " other Sentinels",
                    () -> queries.isReadyToFailOver(primary.port(), REPLICAS, SENTINELS - 1));
        }
    }

    private static Optional<Integer> agreed(List<Optional<Integer>> named) {
        Optional<Integer> first = named.get(0);
        return named.stream().allMatch(first::equals) ? first : Optional.empty();
    }

    /** True when {@code primary} acts as one and every other node that answers replicates from it. */
    private boolean isSettled(TestRedis primary) {
        return ReplicationProbe.isMaster(primary)
                && nodes.stream()
                        .filter(node -> node != primary)
                        .allMatch(node -> ReplicationProbe.followsOrIsSilent(node, primary));
    }

    private String sentinelLogs() {
        StringBuilder logs = new StringBuilder();
        for (ProcessBackend sentinel : sentinels) {
            logs.append("\nLast lines of the log of ")
                    .append(sentinel.description())
                    .append(":\n")
                    .append(sentinel.logTail());
        }
        return logs.toString();
    }

    private TestRedis node(int port) {
        return nodes.stream()
                .filter(node -> node.port() == port)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("A Sentinel of " + this + " names port " + port
                        + " as the primary, which is none of this deployment's servers"));
    }

    private SentinelQueries queries(ProcessBackend sentinel) {
        return new SentinelQueries(sentinel.host(), sentinel.port(), MASTER_NAME);
    }

    private static RuntimeException attempt(Runnable stop, RuntimeException earlier) {
        try {
            stop.run();
            return earlier;
        } catch (RuntimeException e) {
            if (earlier == null) {
                return e;
            }
            earlier.addSuppressed(e);
            return earlier;
        }
    }
}
