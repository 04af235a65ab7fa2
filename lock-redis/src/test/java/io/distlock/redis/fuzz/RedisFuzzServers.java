package io.distlock.redis.fuzz;

import io.distlock.test.TestRedis;
import io.distlock.test.TestRedisCluster;
import io.distlock.test.fuzz.FuzzServers;
import io.lettuce.core.cluster.SlotHash;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Where a Redis fuzz run keeps its locks and its checker's records: both on one Redis, or the locks on a Redis
 * Cluster or on the independent masters of a Redlock, and the records on a Redis of their own, which no fault done to
 * the lock's servers touches. The workers' {@link RedisFuzzLocks} connect to the locks' servers through the {@link
 * #lockAddress()}.
 */
final class RedisFuzzServers implements FuzzServers {

    /** Far more names than it takes to find a few in each master's slots, which are a third of all. */
    private static final int MAX_CANDIDATE_NAMES = 100_000;

    private final TestRedis checker;
    private final TestRedisCluster cluster;
    private final List<TestRedis> redlockNodes;

    private RedisFuzzServers(TestRedis checker, TestRedisCluster cluster, List<TestRedis> redlockNodes) {
        this.checker = checker;
        this.cluster = cluster;
        this.redlockNodes = List.copyOf(redlockNodes);
    }

    /** Locks and records on one Redis. */
    static RedisFuzzServers oneRedis(TestRedis redis) {
        return new RedisFuzzServers(redis, null, List.of());
    }

    /** Locks on {@code cluster}, records on {@code checker}. */
    static RedisFuzzServers cluster(TestRedisCluster cluster, TestRedis checker) {
        return new RedisFuzzServers(checker, cluster, List.of());
    }

    /** Locks on the independent masters {@code nodes} of a Redlock, records on {@code checker}. */
    static RedisFuzzServers redlock(List<TestRedis> nodes, TestRedis checker) {
        return new RedisFuzzServers(checker, null, nodes);
    }

    /** The Redis of the checker's records, the start signal, and the locks unless they are on a cluster or Redlock. */
    @Override
    public TestRedis checker() {
        return checker;
    }

    /** The locks' servers as {@link RedisFuzzLocks.Topology} spells them. */
    @Override
    public String lockAddress() {
        if (cluster != null) {
            return RedisFuzzLocks.Topology.cluster(cluster.nodeAddresses());
        }
        if (!redlockNodes.isEmpty()) {
            return RedisFuzzLocks.Topology.redlock(redlockNodes.stream()
                    .map(node -> node.host() + ":" + node.port())
                    .toList());
        }
        return RedisFuzzLocks.Topology.standalone(checker.host() + ":" + checker.port());
    }

    @Override
    public String description() {
        if (cluster != null) {
            return "Redis Cluster of " + cluster.nodes().size() + " nodes; checker on a Redis of its own";
        }
        if (!redlockNodes.isEmpty()) {
            return "Redlock over " + redlockNodes.size() + " independent Redis masters; checker on a Redis of its own";
        }
        return "one Redis, with the checker's records";
    }

    /**
     * Names for a run's lock keys. On one Redis any names do; on a cluster, they are spread evenly over the masters,
     * which take turns: the first name is served by the first master, the second by the second, and so on.
     *
     * @param lockPrefix the prefix of the run's lock keys, which decides their slots
     */
    @Override
    public List<String> keyNames(String lockPrefix, int count) {
        if (cluster == null) {
            return FuzzServers.super.keyNames(lockPrefix, count);
        }
        List<Set<Integer>> slotsOfMasters = cluster.nodes().stream()
                .map(cluster::slotsOf)
                .filter(slots -> !slots.isEmpty())
                .toList();
        List<List<String>> namesOfMasters = new ArrayList<>();
        slotsOfMasters.forEach(slots -> namesOfMasters.add(new ArrayList<>()));
        int perMaster = (count + slotsOfMasters.size() - 1) / slotsOfMasters.size();
        for (int candidate = 0; namesOfMasters.stream().anyMatch(names -> names.size() < perMaster); candidate++) {
            if (candidate == MAX_CANDIDATE_NAMES) {
                throw new IllegalStateException("no " + perMaster + " key names for each master among "
                        + MAX_CANDIDATE_NAMES + " candidates; slots of the masters: " + slotsOfMasters);
            }
            String name = "key" + candidate;
            int slot = SlotHash.getSlot(RedisFuzzLocks.redisKey(lockPrefix, name));
            for (int master = 0; master < slotsOfMasters.size(); master++) {
                List<String> names = namesOfMasters.get(master);
                if (slotsOfMasters.get(master).contains(slot) && names.size() < perMaster) {
                    names.add(name);
                }
            }
        }
        List<String> names = new ArrayList<>();
        for (int i = 0; names.size() < count; i++) {
            names.add(namesOfMasters.get(i % namesOfMasters.size()).get(i / namesOfMasters.size()));
        }
        return names;
    }

    @Override
    public String servedBy(String lockPrefix, String keyName) {
        if (cluster != null) {
            return "master :"
                    + cluster.masterOf(RedisFuzzLocks.redisKey(lockPrefix, keyName))
                            .port();
        }
        if (!redlockNodes.isEmpty()) {
            return "majority of :"
                    + redlockNodes.stream()
                            .map(node -> Integer.toString(node.port()))
                            .collect(Collectors.joining(", :"));
        }
        return "Redis :" + checker.port();
    }
}
