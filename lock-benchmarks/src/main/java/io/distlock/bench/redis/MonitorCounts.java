package io.distlock.bench.redis;

import java.util.Map;
import java.util.TreeMap;

/**
 * The lock work a {@link CommandMonitor} saw, split by who sent each command: a client, or a Lua script.
 *
 * @param topLevel commands sent by clients over the network, by name
 * @param inScripts commands called by scripts, by name
 */
public record MonitorCounts(Map<String, Long> topLevel, Map<String, Long> inScripts) {

    /** Copies both maps, sorted by command name. */
    public MonitorCounts {
        topLevel = new TreeMap<>(topLevel);
        inScripts = new TreeMap<>(inScripts);
    }

    /**
     * All commands sent by clients.
     *
     * @return the sum of {@link #topLevel()}
     */
    public long topLevelTotal() {
        return topLevel.values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * All commands called by scripts.
     *
     * @return the sum of {@link #inScripts()}
     */
    public long inScriptsTotal() {
        return inScripts.values().stream().mapToLong(Long::longValue).sum();
    }
}
