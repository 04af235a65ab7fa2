package io.distlock.fuzz;

import io.distlock.test.TestRedis;
import io.distlock.test.TestRedisCluster;
import io.lettuce.core.cluster.SlotHash;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * Where a fuzz run keeps its locks and its checker's records: both on one Redis, or the locks on a Redis Cluster, on
 * the independent masters of a Redlock or in a store other than Redis, and the records on a Redis of their own, which
 * no fault done to the lock's servers touches.
 */
final class FuzzServers {

    /** Far more names than it takes to find a few in each master's slots, which are a third of all. */
    private static final int MAX_CANDIDATE_NAMES = 100_000;

    private final TestRedis checker;
    private final TestRedisCluster cluster;
    private final List<TestRedis> redlockNodes;
    private final Store store;

    private FuzzServers(TestRedis checker, TestRedisCluster cluster, List<TestRedis> redlockNodes, Store store) {
        this.checker = checker;
        this.cluster = cluster;
        this.redlockNodes = List.copyOf(redlockNodes);
        this.store = store;
    }

    private FuzzServers(TestRedis checker, TestRedisCluster cluster, List<TestRedis> redlockNodes) {
        this(checker, cluster, redlockNodes, null);
    }

    /**
     * A store other than Redis that holds a run's locks.
     *
     * @param factory the class of the {@link FuzzLockFactory} that builds the lock in the workers
     * @param address where the store is, in the form the factory takes
     * @param description what the store is, for the run's report
     */
    record Store(Class<? extends FuzzLockFactory> factory, String address, String description) {}

    /** Locks and records on one Redis. */
    static FuzzServers oneRedis(TestRedis redis) {
        return new FuzzServers(redis, null, List.of());
    }

    /** Locks on {@code cluster}, records on {@code checker}. */
    static FuzzServers cluster(TestRedisCluster cluster, TestRedis checker) {
        return new FuzzServers(checker, cluster, List.of());
    }

    /** Locks on the independent masters {@code nodes} of a Redlock, records on {@code checker}. */
    static FuzzServers redlock(List<TestRedis> nodes, TestRedis checker) {
        return new FuzzServers(checker, null, nodes);
    }

    /** Locks in {@code store}, records on {@code checker}. */
    static FuzzServers store(Store store, TestRedis checker) {
        return new FuzzServers(checker, null, List.of(), store);
    }

    /** The Redis of the checker's records, the start signal, and the locks unless they are on a cluster. */
    TestRedis checker() {
        return checker;
    }

    boolean onCluster() {
        return cluster != null;
    }

    /** The nodes of the cluster that holds the locks, or none if they are on the checker's Redis. */
    List<String> clusterNodes() {
        return onCluster() ? cluster.nodeAddresses() : List.of();
    }

    /** The Redlock nodes that hold the locks, or none if they are elsewhere. */
    List<String> redlockNodes() {
        return redlockNodes.stream()
                .map(node -> node.host() + ":" + node.port())
                .toList();
    }

    /** The class name of the factory of the lock in a store, or empty if the locks are on Redis. */
    String storeFactory() {
        return store == null ? "" : store.factory().getName();
    }

    /** Where the store that holds the locks is, or empty if they are on Redis. */
    String storeAddress() {
        return store == null ? "" : store.address();
    }

    /**
     * Names for a run's lock keys. On one Redis any names do; on a cluster, they are spread evenly over the masters,
     * which take turns: the first name is served by the first master, the second by the second, and so on.
     *
     * @param lockPrefix the prefix of the run's lock keys, which decides their slots
     */
    List<String> keyNames(String lockPrefix, int count) {
        if (!onCluster()) {
            return WorkerConfig.keyNames(count);
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
            int slot = SlotHash.getSlot(LockUnderTest.redisKey(lockPrefix, name));
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

    /** Where the locks of a run are now, for its report. */
    LockPlacement placement(String lockPrefix, List<String> keyNames) {
        Map<String, String> servedBy = new LinkedHashMap<>();
        for (String name : keyNames) {
            servedBy.put(name, servedBy(LockUnderTest.redisKey(lockPrefix, name)));
        }
        String description;
        if (onCluster()) {
            description = "Redis Cluster of " + cluster.nodes().size() + " nodes; checker on a Redis of its own";
        } else if (store != null) {
            description = store.description() + "; checker on a Redis of its own";
        } else if (!redlockNodes.isEmpty()) {
            description =
                    "Redlock over " + redlockNodes.size() + " independent Redis masters; checker on a Redis of its own";
        } else {
            description = "one Redis, with the checker's records";
        }
        return new LockPlacement(description, onCluster(), servedBy);
    }

    private String servedBy(String lockKey) {
        if (store != null) {
            return store.description();
        }
        if (onCluster()) {
            return "master :" + cluster.masterOf(lockKey).port();
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
