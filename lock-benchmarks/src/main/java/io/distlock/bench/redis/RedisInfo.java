package io.distlock.bench.redis;

import io.distlock.bench.contender.LettuceFactories;
import io.distlock.bench.contender.RedisEndpoint;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;
import java.util.Properties;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/** The harness's own connection for asking Redis about itself, apart from every contender's. */
public final class RedisInfo implements AutoCloseable {

    private final LettuceConnectionFactory connectionFactory;
    private final StringRedisTemplate redis;

    /**
     * Connects.
     *
     * @param endpoint the Redis under test
     */
    public RedisInfo(RedisEndpoint endpoint) {
        this.connectionFactory = LettuceFactories.start(endpoint);
        this.redis = new StringRedisTemplate(connectionFactory);
    }

    /**
     * Reads {@code INFO commandstats}.
     *
     * @return the calls of every command since the server started
     */
    public CommandCounts commandCounts() {
        Map<String, Long> calls = new HashMap<>();
        info("commandstats").forEach((name, value) -> {
            String stat = name.toString();
            if (stat.startsWith("cmdstat_")) {
                calls.put(stat.substring("cmdstat_".length()), callsOf(value.toString()));
            }
        });
        return new CommandCounts(calls);
    }

    /**
     * Reads the CPU time the server has used, from {@code INFO cpu}.
     *
     * @return user plus system seconds since the server started
     */
    public double cpuSeconds() {
        Properties cpu = info("cpu");
        return Double.parseDouble(cpu.getProperty("used_cpu_user", "0"))
                + Double.parseDouble(cpu.getProperty("used_cpu_sys", "0"));
    }

    /**
     * Reads the server's version.
     *
     * @return {@code redis_version} from {@code INFO server}
     */
    public String serverVersion() {
        return info("server").getProperty("redis_version", "unknown");
    }

    /** Sends ECHO, which a {@link CommandMonitor} waits for to know it has seen everything before it. */
    void echo(String marker) {
        redis.execute((RedisCallback<byte[]>)
                connection -> connection.commands().echo(marker.getBytes(StandardCharsets.UTF_8)));
    }

    private Properties info(String section) {
        Properties info = redis.execute((RedisCallback<Properties>)
                connection -> connection.serverCommands().info(section));
        return info == null ? new Properties() : info;
    }

    private static long callsOf(String stat) {
        for (String field : stat.split(",")) {
            if (field.startsWith("calls=")) {
                return Long.parseLong(field.substring("calls=".length()));
            }
        }
        throw new IllegalArgumentException("no calls= in commandstats entry " + stat);
    }

    @Override
    public void close() {
        connectionFactory.destroy();
    }
}
