package io.distlock.bench.contender;

import io.distlock.redis.Redlock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * distlock's {@link Redlock} with default settings and fixed leases, over independent masters, each on a connection
 * factory of its own configured like single-node distlock's, so that the two differ only in the number of servers.
 */
final class RedlockContender implements Contender {

    private final List<LettuceConnectionFactory> connectionFactories = new ArrayList<>();
    private final Redlock lock;

    RedlockContender(RedisNodes redis) {
        if (redis.topology() != Topology.INDEPENDENT) {
            throw new IllegalArgumentException("a Redlock locks on independent masters, not on a "
                    + redis.topology().id() + " target");
        }
        try {
            redis.nodes().forEach(node -> connectionFactories.add(LettuceFactories.start(RedisNodes.standalone(node))));
            this.lock = Redlock.builder(connectionFactories).build();
        } catch (RuntimeException e) {
            connectionFactories.forEach(LettuceFactories::destroy);
            throw e;
        }
    }

    @Override
    public @Nullable Release tryAcquire(String key, Duration lease, Duration wait) throws InterruptedException {
        return LockCalls.tryAcquire(lock, key, lease, wait);
    }

    @Override
    public void close() {
        lock.close();
        connectionFactories.forEach(LettuceFactories::destroy);
    }
}
