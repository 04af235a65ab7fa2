package io.distlock.bench.redis;

import io.distlock.bench.contender.LettuceFactories;
import io.distlock.bench.contender.RedisEndpoint;
import io.distlock.bench.contender.RedisNodes;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeSet;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The harness's own connections for asking Redis about itself, apart from every contender's: one to each node, so that
 * on a cluster the figures are the sum over all of them, whichever node a contender's keys live on.
 */
public final class RedisInfo implements AutoCloseable {

    /** The {@code CLUSTER INFO} fields of pub/sub messages sent over the cluster bus, by the name they count under. */
    private static final Map<String, String> BUS_MESSAGES = Map.of(
            "cluster_stats_messages_publish_sent", CommandCounts.BUS_PUBLISH,
            "cluster_stats_messages_publishshard_sent", CommandCounts.BUS_SHARDED_PUBLISH);

    private final List<Node> nodes = new ArrayList<>();
    private final boolean cluster;

    /**
     * Connects to every node.
     *
     * @param redis the Redis under test
     */
    public RedisInfo(RedisNodes redis) {
        this.cluster = redis.isCluster();
        try {
            for (RedisEndpoint endpoint : redis.nodes()) {
                LettuceConnectionFactory factory = LettuceFactories.start(RedisNodes.standalone(endpoint));
                nodes.add(new Node(endpoint, factory, new StringRedisTemplate(factory)));
            }
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    /**
     * Reads {@code INFO commandstats} of every node and adds them up; on a cluster, also the pub/sub messages the
     * nodes sent each other over the cluster bus ({@code CLUSTER INFO}).
     *
     * @return the calls of every command since the servers started
     */
    public CommandCounts commandCounts() {
        Map<String, Long> calls = new HashMap<>();
        for (Node node : nodes) {
            info(node, "commandstats").forEach((name, value) -> {
                String stat = name.toString();
                if (stat.startsWith("cmdstat_")) {
                    calls.merge(stat.substring("cmdstat_".length()), callsOf(value.toString()), Long::sum);
                }
            });
            if (cluster) {
                busMessages(node).forEach((name, sent) -> calls.merge(name, sent, Long::sum));
            }
        }
        return new CommandCounts(calls);
    }

    private static Map<String, Long> busMessages(Node node) {
        Object answer = node.redis().execute((RedisCallback<Object>)
                connection -> connection.execute("CLUSTER", "INFO".getBytes(StandardCharsets.UTF_8)));
        String text =
                answer instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(answer);
        Map<String, Long> sent = new HashMap<>();
        for (String line : text.split("\\r?\\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && BUS_MESSAGES.containsKey(line.substring(0, colon))) {
                sent.put(
                        BUS_MESSAGES.get(line.substring(0, colon)),
                        Long.parseLong(line.substring(colon + 1).trim()));
            }
        }
        return sent;
    }

    /**
     * Reads the CPU time the servers have used, from {@code INFO cpu}.
     *
     * @return user plus system seconds since the servers started, all nodes together
     */
    public double cpuSeconds() {
        double seconds = 0;
        for (Node node : nodes) {
            Properties cpu = info(node, "cpu");
            seconds += Double.parseDouble(cpu.getProperty("used_cpu_user", "0"))
                    + Double.parseDouble(cpu.getProperty("used_cpu_sys", "0"));
        }
        return seconds;
    }

    /**
     * Reads the servers' version.
     *
     * @return {@code redis_version} from {@code INFO server}; several, comma-separated, if the nodes differ
     */
    public String serverVersion() {
        TreeSet<String> versions = new TreeSet<>();
        nodes.forEach(node -> versions.add(info(node, "server").getProperty("redis_version", "unknown")));
        return String.join(", ", versions);
    }

    /** The nodes asked, in the order given. */
    List<RedisEndpoint> endpoints() {
        return nodes.stream().map(Node::endpoint).toList();
    }

    /** Sends ECHO to one node, which a {@link CommandMonitor} waits for to know it has seen everything before it. */
    void echo(RedisEndpoint endpoint, String marker) {
        Node node = nodes.stream()
                .filter(candidate -> candidate.endpoint().equals(endpoint))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("not a node of this Redis: " + endpoint.address()));
        node.redis().execute((RedisCallback<byte[]>)
                connection -> connection.commands().echo(marker.getBytes(StandardCharsets.UTF_8)));
    }

    private static Properties info(Node node, String section) {
        Properties info = node.redis().execute((RedisCallback<Properties>)
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
        nodes.forEach(node -> LettuceFactories.destroy(node.factory()));
    }

    /** A connection of the harness's own to one server. */
    private record Node(RedisEndpoint endpoint, LettuceConnectionFactory factory, StringRedisTemplate redis) {}
}
