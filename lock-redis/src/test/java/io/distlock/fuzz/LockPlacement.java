package io.distlock.fuzz;

import java.util.Map;

/**
 * Where a fuzz run's locks were, for its report.
 *
 * @param description the servers, in a few words
 * @param onCluster whether the locks were on a Redis Cluster, apart from the checker's records
 * @param servedBy for each key name, the server that held its lock when the run began
 */
record LockPlacement(String description, boolean onCluster, Map<String, String> servedBy) {

    LockPlacement {
        servedBy = Map.copyOf(servedBy);
    }
}
