package io.distlock.test.redis;

import io.distlock.tck.net.FreePorts;

/** Ports for Redis Cluster nodes, each of which also listens on its cluster bus port. */
final class ClusterPorts {

    /** Redis 6 listens for its cluster bus this many ports above its client port, and cannot be told otherwise. */
    static final int CLUSTER_BUS_OFFSET = 10000;

    private ClusterPorts() {}

    /**
     * Returns a free port for a Redis Cluster node whose cluster bus port, {@value #CLUSTER_BUS_OFFSET} higher, is
     * free as well; both are handed out.
     */
    static int nextWithClusterBus() {
        while (true) {
            int port = FreePorts.next();
            if (FreePorts.claim(port + CLUSTER_BUS_OFFSET)) {
                return port;
            }
        }
    }
}
