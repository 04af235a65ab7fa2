package io.distlock.bench.redis;

import io.distlock.bench.contender.RedisEndpoint;
import io.distlock.bench.contender.RedisNodes;
import io.distlock.test.redis.TestRedis;
import java.util.ArrayList;
import java.util.List;

/**
 * The independent masters that Redlock contenders lock on: throwaway servers started through lock-test-redis like
 * the standalone target, each on a free port of its own.
 *
 * <p>None of them is the target. Every Redlock node is then started, configured and used alike, and idle while other
 * contenders run, just as the target is idle while a Redlock runs; the target alone also serves every peer's keys and
 * leftovers. A Redlock of fewer nodes uses the first of them: contenders never run at the same time, so sharing
 * servers between Redlocks is like sharing the target between the others.
 */
public final class RedlockServers implements AutoCloseable {

    private final List<TestRedis> servers = new ArrayList<>();

    private RedlockServers() {}

    /**
     * Starts {@code count} servers.
     *
     * @param count how many; 0 starts none
     * @return the servers; close them when done
     */
    public static RedlockServers start(int count) {
        RedlockServers started = new RedlockServers();
        try {
            for (int i = 0; i < count; i++) {
                started.servers.add(TestRedis.start());
            }
            return started;
        } catch (RuntimeException e) {
            started.close();
            throw e;
        }
    }

    /**
     * The first {@code count} servers as a Redlock's masters.
     *
     * @param count how many masters
     * @return the masters
     * @throws IllegalArgumentException if fewer servers were started
     */
    public RedisNodes nodes(int count) {
        if (count < 1 || count > servers.size()) {
            throw new IllegalArgumentException(servers.size() + " Redlock servers were started, not " + count);
        }
        return RedisNodes.independent(servers.subList(0, count).stream()
                .map(server -> new RedisEndpoint(server.host(), server.port(), server.password()))
                .toList());
    }

    /**
     * Where the servers listen and came from, for the progress output.
     *
     * @return for example {@code 5 servers, 127.0.0.1:40001, ... (PATH)}
     */
    public String description() {
        return servers.size() + " servers, "
                + String.join(
                        ", ",
                        servers.stream()
                                .map(server -> server.host() + ":" + server.port())
                                .toList())
                + (servers.isEmpty() ? "" : " (" + servers.get(0).provider() + ")");
    }

    @Override
    public void close() {
        servers.forEach(TestRedis::close);
    }
}
