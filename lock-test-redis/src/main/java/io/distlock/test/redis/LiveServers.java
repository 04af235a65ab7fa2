package io.distlock.test.redis;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Servers that are still running. A test that forgets {@code close()}, or the JVM-wide shared server, must not leave a
 * redis-server process behind after the test JVM exits.
 */
final class LiveServers {

    private static final Set<RedisBackend> RUNNING = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(LiveServers::stopAll, "distlock-test-redis-shutdown"));
    }

    private LiveServers() {}

    static void add(RedisBackend backend) {
        RUNNING.add(backend);
    }

    static void remove(RedisBackend backend) {
        RUNNING.remove(backend);
    }

    private static void stopAll() {
        for (RedisBackend backend : RUNNING) {
            try {
                backend.stop();
            } catch (RuntimeException e) {
                // The JVM is exiting; one stubborn server must not keep the others running.
            }
        }
    }
}
