package io.distlock.test.redis;

import io.distlock.test.redis.TestRedis.Provider;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The launch of a {@link TestRedisCluster}: the shape and options a test asked for through {@link
 * TestRedisCluster.Builder}, checked as it is asked, the nodes' processes, and the steps that turn started nodes into a
 * cluster, kept together since their order matters.
 */
final class ClusterFormation {

    private int masters = 3;
    private int replicasPerMaster = 1;
    private Duration nodeTimeout = Duration.ofSeconds(1);
    private Provider provider;
    private final List<String> configDirectives = new ArrayList<>();

    void masters(int masters) {
        if (masters < 1) {
            throw new IllegalArgumentException("A cluster needs at least 1 master, but " + masters + " were asked");
        }
        this.masters = masters;
    }

    void replicasPerMaster(int replicasPerMaster) {
        if (replicasPerMaster < 0) {
            throw new IllegalArgumentException("replicasPerMaster must be 0 or more, but was " + replicasPerMaster);
        }
        this.replicasPerMaster = replicasPerMaster;
    }

    void nodeTimeout(Duration nodeTimeout) {
        if (nodeTimeout.toMillis() < 100) {
            throw new IllegalArgumentException("nodeTimeout must be at least 100 ms, but was " + nodeTimeout);
        }
        this.nodeTimeout = nodeTimeout;
    }

    void provider(Provider provider) {
        if (Objects.requireNonNull(provider, "provider") == Provider.TESTCONTAINERS) {
            throw new IllegalArgumentException("A test cluster runs redis-server processes (PATH or EMBEDDED): "
                    + "nodes in containers would announce addresses that the others cannot reach");
        }
        this.provider = provider;
    }

    void configLines(String... directives) {
        for (String directive : directives) {
            ConfigArgs.of(directive);
        }
        configDirectives.addAll(List.of(directives));
    }

    /** A formed cluster's nodes, masters first, and the provider they came from. */
    record Formed(List<TestRedis> nodes, Provider provider) {}

    /**
     * Starts the nodes, from the provider asked for or the JVM's default process provider, and forms them into a
     * healthy cluster within {@code timeout}; stops them all if that fails.
     */
    Formed start(Duration timeout) {
        Provider chosen = provider != null ? provider : ProviderSelection.defaultProcessProvider();
        RedisExecutable executable = ServerLaunch.executable(chosen);
        List<String> directives = new ArrayList<>(List.of(
                "cluster-enabled yes",
                "cluster-config-file nodes.conf",
                "cluster-node-timeout " + nodeTimeout.toMillis(),
                "cluster-replica-validity-factor 0"));
        directives.addAll(configDirectives);
        ServerOptions options = new ServerOptions(null, directives, null);
        List<TestRedis> nodes = new ArrayList<>();
        try {
            for (int i = 0; i < masters * (1 + replicasPerMaster); i++) {
                nodes.add(TestRedis.of(
                        ProcessBackend.start(executable, options, ClusterPorts::nextWithClusterBus), options, chosen));
            }
            form(new ClusterNodes(nodes), masters, timeout);
            return new Formed(nodes, chosen);
        } catch (RuntimeException e) {
            nodes.forEach(TestRedis::close);
            throw e;
        }
    }

    private static void form(ClusterNodes cluster, int masters, Duration timeout) {
        List<TestRedis> nodes = cluster.all();
        TestRedis first = nodes.get(0);
        for (TestRedis node : nodes.subList(1, nodes.size())) {
            ClusterNodes.ask(first, "CLUSTER", "MEET", node.host(), Integer.toString(node.port()));
        }
        for (int m = 0; m < masters; m++) {
            int from = TestRedisCluster.SLOTS * m / masters;
            int to = TestRedisCluster.SLOTS * (m + 1) / masters;
            // ADDSLOTSRANGE is Redis 7 only; the embedded binary is 6.2.
            List<String> command = new ArrayList<>(List.of("CLUSTER", "ADDSLOTS"));
            for (int slot = from; slot < to; slot++) {
                command.add(Integer.toString(slot));
            }
            ClusterNodes.ask(nodes.get(m), command.toArray(String[]::new));
        }
        cluster.awaitUntil(
                timeout,
                "every node to know every other",
                () -> nodes.stream().allMatch(node -> cluster.viewOf(node).knowsAll(nodes.size())));
        for (int r = masters; r < nodes.size(); r++) {
            TestRedis master = nodes.get((r - masters) % masters);
            ClusterNodes.ask(nodes.get(r), "CLUSTER", "REPLICATE", ClusterNodes.ask(master, "CLUSTER", "MYID"));
        }
        cluster.awaitUntil(
                timeout,
                "replicas to be in sync",
                () -> nodes.subList(masters, nodes.size()).stream()
                        .allMatch(replica ->
                                ClusterNodes.ask(replica, "INFO", "replication").contains("master_link_status:up")));
        cluster.awaitUntil(timeout, "the cluster to be healthy", cluster::isHealthy);
    }
}
