package io.distlock.bench.contender;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/** How the Redis under test is deployed, and so how every contender connects to it. */
public enum Topology {
    /** One server; every contender connects as to a single Redis. */
    STANDALONE("standalone", true),
    /** A Redis Cluster; every contender connects in its cluster mode, following the slots' owners. */
    CLUSTER("cluster", true),
    /**
     * Independent masters, each a standalone server: what a Redlock contender locks on, never a run's target, since
     * the other contenders have no way to use them.
     */
    INDEPENDENT("independent", false);

    private final String id;
    private final boolean target;

    Topology(String id, boolean target) {
        this.id = id;
        this.target = target;
    }

    /**
     * Finds a topology by the id used on worker command lines.
     *
     * @param id {@code standalone}, {@code cluster} or {@code independent}, in any case
     * @return the topology
     * @throws IllegalArgumentException naming the value and the allowed ones
     */
    public static Topology byId(String id) {
        return find(id, Arrays.asList(values()), "topology");
    }

    /**
     * Finds a topology that a whole run can target, by the id used in {@code bench.target}.
     *
     * @param id {@code standalone} or {@code cluster}, in any case
     * @return the topology
     * @throws IllegalArgumentException naming the value and the allowed ones
     */
    public static Topology target(String id) {
        return find(
                id, Arrays.stream(values()).filter(topology -> topology.target).toList(), "target");
    }

    private static Topology find(String id, List<Topology> allowed, String what) {
        String wanted = id.trim().toLowerCase(Locale.ROOT);
        return allowed.stream()
                .filter(topology -> topology.id.equals(wanted))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown " + what + " '" + id + "'; allowed: "
                        + allowed.stream().map(Topology::id).toList()));
    }

    /**
     * The id used in {@code bench.target} and on worker command lines.
     *
     * @return {@code standalone}, {@code cluster} or {@code independent}
     */
    public String id() {
        return id;
    }
}
