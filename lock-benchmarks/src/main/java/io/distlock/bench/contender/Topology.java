package io.distlock.bench.contender;

import java.util.Arrays;
import java.util.Locale;

/** How the Redis under test is deployed, and so how every contender connects to it. */
public enum Topology {
    /** One server; every contender connects as to a single Redis. */
    STANDALONE("standalone"),
    /** A Redis Cluster; every contender connects in its cluster mode, following the slots' owners. */
    CLUSTER("cluster");

    private final String id;

    Topology(String id) {
        this.id = id;
    }

    /**
     * Finds a topology by the id used in {@code bench.target} and on worker command lines.
     *
     * @param id {@code standalone} or {@code cluster}, in any case
     * @return the topology
     * @throws IllegalArgumentException naming the value and the allowed ones
     */
    public static Topology byId(String id) {
        String wanted = id.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(topology -> topology.id.equals(wanted))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown target '" + id + "'; allowed: "
                        + Arrays.stream(values()).map(Topology::id).toList()));
    }

    /**
     * The id used in {@code bench.target} and on worker command lines.
     *
     * @return {@code standalone} or {@code cluster}
     */
    public String id() {
        return id;
    }
}
