package io.distlock.redis;

import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import java.util.stream.IntStream;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/** Independent Redlock clients of a group of Redis servers, each with its own connections, all closed together. */
final class RedlockClients implements AutoCloseable {

    private final List<RedisClients> nodes = new ArrayList<>();
    private final List<AutoCloseable> locks = new ArrayList<>();

    /** Starts {@code count} independent Redis servers on free ports, to be the nodes of a Redlock. */
    static List<TestRedis> startServers(int count) {
        return IntStream.range(0, count).mapToObj(any -> TestRedis.start()).toList();
    }

    /** Starts again, on their ports, the servers a test killed, so that the next test finds every node up. */
    static void restartThoseDown(List<TestRedis> servers) {
        for (TestRedis server : servers) {
            try {
                server.command("PING");
            } catch (RuntimeException down) {
                server.startAgain();
            }
        }
    }

    RedlockClients(List<TestRedis> servers) {
        servers.forEach(server -> nodes.add(new RedisClients(server)));
    }

    /** A Redlock with default settings, on connection factories of its own. */
    Redlock lock() {
        return lock(builder -> builder);
    }

    /**
     * A Redlock on connection factories of its own, with settings changed by {@code settings}. Unless they say
     * otherwise, it closes at once, without waiting for locks a test left held.
     */
    synchronized Redlock lock(UnaryOperator<RedlockBuilder> settings) {
        Redlock lock = settings.apply(Redlock.builder(connectionFactories()).shutdownGracePeriod(Duration.ZERO))
                .build();
        locks.add(lock);
        return lock;
    }

    /** One new connection factory per node, failing commands at once while its node is down. */
    List<LettuceConnectionFactory> connectionFactories() {
        return nodes.stream().map(RedisClients::redlockNodeConnectionFactory).toList();
    }

    @Override
    public synchronized void close() throws Exception {
        for (int i = locks.size() - 1; i >= 0; i--) {
            locks.get(i).close();
        }
        locks.clear();
        for (RedisClients node : nodes) {
            node.close();
        }
    }
}
