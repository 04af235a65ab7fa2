package io.distlock.autoconfigure.redis;

import io.distlock.autoconfigure.LockBackendCandidate;
import org.springframework.core.env.Environment;

/**
 * Redis, for the backend choice: present when lock-redis is on the class path and the application has a {@code
 * RedisConnectionFactory} bean or sets {@code distlock.redlock.nodes}.
 */
final class RedisLockBackendCandidate implements LockBackendCandidate {

    @Override
    public String id() {
        return "redis";
    }

    @Override
    public String module() {
        return "lock-redis";
    }

    // By name, like the connection's type: this class is loaded also when lock-redis is missing.
    @Override
    public String moduleClass() {
        return "io.distlock.redis.RedisLock";
    }

    @Override
    public String starter() {
        return "io.distlock:lock-spring-boot-starter";
    }

    @Override
    public String connectionType() {
        return "org.springframework.data.redis.connection.RedisConnectionFactory";
    }

    @Override
    public String connectionStarter() {
        return "spring-boot-starter-data-redis";
    }

    @Override
    public String connectionProperty() {
        return "distlock.redlock.nodes";
    }

    /** Any node property counts, even an invalid one, so that start-up fails naming it rather than falling back. */
    @Override
    public boolean hasConnectionProperty(Environment environment) {
        return OnRedlockNodesCondition.configured(environment);
    }

    @Override
    public String configuration() {
        return "io.distlock.autoconfigure.redis.RedisLockConfiguration";
    }
}
