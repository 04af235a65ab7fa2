package io.distlock.redis.fuzz;

import io.distlock.tck.fuzz.FuzzServers;
import io.distlock.test.redis.TestRedis;
import io.distlock.test.redis.TestRedisCluster;
import io.lettuce.core.cluster.SlotHash;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Where a Redis fuzz run keeps its locks: on one Redis, on a Redis Cluster or on the independent masters of a Redlock.
 * The workers' {@link RedisFuzzLocks} connect to them through the {@link #lockAddress()}; the checker's records need
 * no server.
 */
final class RedisFuzzServers implements FuzzServers {

    /** Far more names than it takes to find a few in each master's slots, which are a third of all. */
    private static final int MAX_CANDIDATE_NAMES = 100_000;

    private final TestRedis standalone;
    private final TestRedisCluster cluster;
    private final List<TestRedis> redlockNodes;

    private RedisFuzzServers(TestRedis standalone, TestRedisCluster cluster, List<TestRedis> redlockNodes) {
        this.standalone = standalone;
        this.cluster = cluster;
        this.redlockNodes = List.copyOf(redlockNodes);
    }

    /** Locks on one Redis. */
    static RedisFuzzServers oneRedis(TestRedis redis) {
        return new RedisFuzzServers(redis, null, List.of());
    }

    /** Locks on {@code cluster}. */
    static RedisFuzzServers cluster(TestRedisCluster cluster) {
        return new RedisFuzzServers(null, cluster, List.of());
    }

    /** Locks on the independent masters {@code nodes} of a Redlock. */
    static RedisFuzzServers redlock(List<TestRedis> nodes) {
        return new RedisFuzzServers(null, null, nodes);
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
        return RedisFuzzLocks.Topology.standalone(standalone.host() + ":" + standalone.port());
    }

    @Override
    public String description() {
        if (cluster != null) {
            return "Redis Cluster of " + cluster.nodes().size() + " nodes";
        }
        if (!redlockNodes.isEmpty()) {
            return "Redlock over " + redlockNodes.size() + " independent Redis masters";
        }
        return "one Redis";
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
        return "Redis :" + standalone.port();
    }
}
