package io.distlock.bench.firstcall;

import java.util.Arrays;
import java.util.Locale;

/** The Redis deployments whose first calls are measured. */
enum Deployment {
    /** One server. */
    STANDALONE("standalone", "standalone Redis"),
    /** Three masters with a replica each. */
    CLUSTER("cluster", "Redis Cluster, 3 masters"),
    /** A primary with replicas, found through Sentinel. */
    SENTINEL("sentinel", "Sentinel");

    private final String id;
    private final String label;

    Deployment(String id, String label) {
        this.id = id;
        this.label = label;
    }

    static Deployment byId(String id) {
        String wanted = id.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(deployment -> deployment.id.equals(wanted))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown deployment '" + id + "' in"
                        + " bench.firstCall.deployments; allowed: standalone, cluster, sentinel"));
    }

    String id() {
        return id;
    }

    String label() {
        return label;
    }
}
