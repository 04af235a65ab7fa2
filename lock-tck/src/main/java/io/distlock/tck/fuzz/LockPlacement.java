package io.distlock.tck.fuzz;

import java.util.Map;

/**
 * Where a fuzz run's locks were, for its report.
 *
 * @param description the servers, in a few words
 * @param servedBy for each key name, the server that held its lock when the run began
 */
public record LockPlacement(String description, Map<String, String> servedBy) {

    /** Copies the map. */
    public LockPlacement {
        servedBy = Map.copyOf(servedBy);
    }
}
