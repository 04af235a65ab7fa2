package io.distlock.test.redis;

import io.distlock.test.redis.TestRedis.Provider;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * A real, throwaway Redis Cluster for tests: masters and their replicas, each a {@code redis-server} process on a free
 * port, formed from Java with {@code CLUSTER MEET}, {@code ADDSLOTS} and {@code REPLICATE}, so no {@code redis-cli} is
 * needed.
 *
 * <pre>{@code
 * try (TestRedisCluster cluster = TestRedisCluster.start()) {
 *     TestRedis master = cluster.masterOf("{distlock:stock}");
 *     master.kill();
 *     TestRedis promoted = cluster.awaitHealthy(Duration.ofSeconds(10)).masterOf("{distlock:stock}");
 * }
 * }</pre>
 *
 * <p>Nodes run from the {@link Provider#PATH} or {@link Provider#EMBEDDED} binary (Redis 6.2 works: slots are added
 * one by one, not by range). A test drives single nodes through their {@link TestRedis}: {@link TestRedis#kill()},
 * {@link TestRedis#startAgain()} (the node rejoins from its {@code nodes.conf}), {@link TestRedis#pause()}. The
 * cluster's own methods ask live nodes only and never hang on a paused one.
 *
 * <p>Failure detection is fast for tests: {@code cluster-node-timeout} is 1 s unless the builder says otherwise, and
 * any replica may fail over ({@code cluster-replica-validity-factor 0}).
 */
public final class TestRedisCluster implements AutoCloseable {

    /** The number of hash slots of every Redis Cluster. */
    public static final int SLOTS = 16384;

    /** A bound on forming a cluster, not its time: a loaded machine takes many times longer than an idle one. */
    private static final Duration FORMATION_TIMEOUT = Duration.ofSeconds(90);

    private final ClusterNodes nodes;
    private final Provider provider;

    private TestRedisCluster(List<TestRedis> nodes, Provider provider) {
        this.nodes = new ClusterNodes(nodes);
        this.provider = provider;
    }

    /**
     * Starts three masters with one replica each and waits until every node reports {@code cluster_state:ok} and
     * agrees on who serves which slot.
     *
     * @return the running cluster; close it when the test is done
     */
    public static TestRedisCluster start() {
        return builder().start();
    }

    /**
     * Returns a builder for another shape, node timeout or provider.
     *
     * @return a new builder
     */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * Returns every node in start order, masters first; roles change with failovers, the order does not.
     *
     * @return all nodes, live or not
     */
    public List<TestRedis> nodes() {
        return nodes.all();
    }

    /**
     * Returns where the nodes came from.
     *
     * @return {@link Provider#PATH} or {@link Provider#EMBEDDED}
     */
    public Provider provider() {
        return provider;
    }

    /**
     * Returns the address of every node, as Spring Boot's {@code spring.data.redis.cluster.nodes} takes it.
     *
     * @return {@code host:port} per node
     */
    public List<String> nodeAddresses() {
        return nodes().stream().map(node -> node.host() + ":" + node.port()).toList();
    }

    /**
     * Returns the hash slot of a key, as Redis computes it ({@code CLUSTER KEYSLOT}).
     *
     * @param key a Redis key; only its hash tag counts if it has one
     * @return the slot, from 0 to {@value #SLOTS} - 1
     */
    public int slotOf(String key) {
        return Integer.parseInt(ClusterNodes.ask(nodes.anyLive(), "CLUSTER", "KEYSLOT", key));
    }

    /**
     * Returns the master that serves a key's slot, as the first live node asked believes.
     *
     * @param key a Redis key
     * @return that master
     * @throws IllegalStateException if no live master serves the slot
     */
    public TestRedis masterOf(String key) {
        return masterOfSlot(slotOf(key));
    }

    /**
     * Returns the master that serves a slot, as the first live node asked believes.
     *
     * @param slot a hash slot
     * @return that master
     * @throws IllegalStateException if no live master serves the slot
     */
    public TestRedis masterOfSlot(int slot) {
        return nodes.masterOfSlot(slot);
    }

    /**
     * Returns the slots a master serves, as it believes itself.
     *
     * @param master a live master of this cluster
     * @return its slots, empty for a replica
     */
    public Set<Integer> slotsOf(TestRedis master) {
        return nodes.slotsOf(master);
    }

    /**
     * Returns the nodes that replicate a master now.
     *
     * @param master a master of this cluster
     * @return its replicas, as the master itself reports them
     */
    public List<TestRedis> replicasOf(TestRedis master) {
        return nodes.replicasOf(master);
    }

    /**
     * Returns a node's cluster id.
     *
     * @param node a live node of this cluster
     * @return its 40-character node id
     */
    public String nodeId(TestRedis node) {
        return ClusterNodes.ask(node, "CLUSTER", "MYID");
    }

    /**
     * Promotes a replica the way an operator does ({@code CLUSTER FAILOVER}): its master hands the slots over without
     * losing writes. Returns once every live node agrees.
     *
     * @param replica a live replica
     * @param timeout how long the promotion may take
     * @return the replica, now a master
     * @throws IllegalStateException if it did not happen in time
     */
    public TestRedis failover(TestRedis replica, Duration timeout) {
        ClusterNodes.ask(replica, "CLUSTER", "FAILOVER");
        nodes.awaitUntil(timeout, "replica on port " + replica.port() + " to be promoted", () -> {
            Optional<ClusterView> view = nodes.tryView(replica);
            return view.isPresent() && view.get().myself().isMaster() && nodes.isHealthy();
        });
        return replica;
    }

    /**
     * Cuts a replica off from its master's writes while both stay up and the cluster sees nothing wrong: the replica
     * can still be promoted, and then lacks every write made meanwhile. This is how asynchronous replication loses
     * writes at a failover, made deterministic: the replica's link is dropped and it cannot authenticate to sync again
     * until {@link #restoreReplication}.
     *
     * @param replica a live replica
     */
    public void cutReplication(TestRedis replica) {
        ReplicationCut.cut(nodes, replica);
    }

    /**
     * Lets a replica cut off by {@link #cutReplication} sync again; a node promoted meanwhile simply stays a master.
     *
     * @param node the node that was cut off
     */
    public void restoreReplication(TestRedis node) {
        ReplicationCut.restore(node);
    }

    /**
     * Undoes what a test did to the cluster, so the next test of the class starts from a healthy one: starts every
     * killed node again, lets every replica that was cut off sync, and waits until healthy with every node back as a
     * master that serves slots or a replica (a killed master comes back without slots, and turns into a replica of the
     * node that took over a moment later). Paused nodes are not resumed; the test that paused them does that.
     *
     * @param timeout how long healing may take
     * @return this cluster
     */
    public TestRedisCluster heal(Duration timeout) {
        for (TestRedis node : nodes()) {
            if (ClusterNodes.tryAsk(node, "PING").isEmpty()) {
                node.startAgain();
            }
            restoreReplication(node);
        }
        nodes.awaitUntil(
                timeout,
                "the cluster to be healthy, every node back as a master or replica",
                () -> nodes.isHealthy() && nodes.noIdleMaster());
        return this;
    }

    /**
     * Waits until every slot is served by a live master, every live node reports {@code cluster_state:ok}, all of
     * them agree on who serves what and who replicates whom, and every live replica is in sync with its master: after a killed master's replica took over, or a killed node came back.
     *
     * @param timeout how long it may take
     * @return this cluster
     * @throws IllegalStateException if it did not happen in time, with the nodes' views
     */
    public TestRedisCluster awaitHealthy(Duration timeout) {
        nodes.awaitUntil(timeout, "the cluster to be healthy", nodes::isHealthy);
        return this;
    }

    /**
     * Moves a slot, and the keys in it, to another master, the way {@code redis-cli --cluster reshard} does. Keys keep
     * their values and remaining TTL.
     *
     * @param slot the slot to move
     * @param target the master that takes it over
     */
    public void moveSlot(int slot, TestRedis target) {
        SlotMigration migration = beginMigration(slot, target);
        migration.migrateKeys();
        migration.complete();
    }

    /**
     * Starts moving a slot to another master and stops half way, for tests that run commands while the slot is
     * migrating: the source answers {@code ASK} for keys it no longer has.
     *
     * @param slot the slot to move
     * @param target the master that takes it over
     * @return the migration in progress
     */
    public SlotMigration beginMigration(int slot, TestRedis target) {
        TestRedis source = masterOfSlot(slot);
        if (source == target) {
            throw new IllegalArgumentException("Slot " + slot + " is already served by " + target);
        }
        return new SlotMigration(slot, source, target, SlotMigrationSteps.begin(slot, source, target));
    }

    /**
     * Describes the cluster for test output.
     *
     * @return the nodes' descriptions
     */
    public String description() {
        return "Redis Cluster of " + nodes().size() + " nodes: " + nodes();
    }

    @Override
    public String toString() {
        return description();
    }

    /** Stops every node and deletes their directories; calling it again does nothing. */
    @Override
    public void close() {
        RuntimeException failure = null;
        for (TestRedis node : nodes()) {
            try {
                node.close();
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        if (failure != null) {
            throw failure;
        }
    }

    /** A slot on its way from one master to another, started by {@link #beginMigration}. */
    public final class SlotMigration {

        private final int slot;
        private final TestRedis source;
        private final TestRedis target;
        private final String targetId;

        private SlotMigration(int slot, TestRedis source, TestRedis target, String targetId) {
            this.slot = slot;
            this.source = source;
            this.target = target;
            this.targetId = targetId;
        }

        /**
         * Moves the keys the source still has in the slot to the target ({@code MIGRATE}). Keys written to the slot
         * later are created on the target, which clients find through {@code ASK}.
         *
         * @return how many keys were moved
         */
        public int migrateKeys() {
            return SlotMigrationSteps.migrateKeys(slot, source, target);
        }

        /**
         * Ends the migration: the target serves the slot, and every master is told ({@code SETSLOT NODE}). Call
         * {@link #migrateKeys()} first, or the keys left on the source are lost to clients.
         */
        public void complete() {
            SlotMigrationSteps.complete(nodes, slot, source, target, targetId);
        }
    }

    /** Options for a cluster; obtained from {@link TestRedisCluster#builder()}. */
    public static final class Builder {

        private final ClusterFormation formation = new ClusterFormation();

        private Builder() {}

        /**
         * Sets how many masters share the slots.
         *
         * @param masters at least 1; the default is 3
         * @return this builder
         */
        public Builder masters(int masters) {
            formation.masters(masters);
            return this;
        }

        /**
         * Sets how many replicas each master gets.
         *
         * @param replicasPerMaster 0 or more; the default is 1
         * @return this builder
         */
        public Builder replicasPerMaster(int replicasPerMaster) {
            formation.replicasPerMaster(replicasPerMaster);
            return this;
        }

        /**
         * Sets {@code cluster-node-timeout}: how long a node may not answer before the others count it failed.
         *
         * @param nodeTimeout at least 100 ms; the default is 1 s
         * @return this builder
         */
        public Builder nodeTimeout(Duration nodeTimeout) {
            formation.nodeTimeout(nodeTimeout);
            return this;
        }

        /**
         * Forces where the nodes come from.
         *
         * @param provider {@link Provider#PATH} or {@link Provider#EMBEDDED}; by default the default provider, or the
         *     PATH's or the embedded binary when the default is {@link Provider#TESTCONTAINERS}, whose containers
         *     would announce addresses that other nodes and clients cannot reach
         * @return this builder
         */
        public Builder provider(Provider provider) {
            formation.provider(provider);
            return this;
        }

        /**
         * Adds {@code redis.conf} directives for every node, as {@link TestRedis.Builder#configLine} takes them.
         *
         * @param directives one directive per string
         * @return this builder
         */
        public Builder configLine(String... directives) {
            formation.configLines(directives);
            return this;
        }

        /**
         * Starts the nodes, forms the cluster and waits until it is healthy.
         *
         * @return the running cluster; close it when the test is done
         * @throws IllegalStateException if a node cannot start or the cluster does not form in 30 s
         */
        public TestRedisCluster start() {
            ClusterFormation.Formed formed = formation.start(FORMATION_TIMEOUT);
            return new TestRedisCluster(formed.nodes(), formed.provider());
        }
    }
}
