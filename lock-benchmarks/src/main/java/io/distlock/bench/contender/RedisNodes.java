package io.distlock.bench.contender;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The Redis under test as clients connect to it: one standalone server, or the nodes of a Redis Cluster, which
 * cluster clients use as seeds to discover who serves which slot. It travels to worker processes as command-line
 * arguments: the topology's id, then one {@code redis://} URI per node.
 *
 * @param topology standalone or cluster
 * @param nodes the server, or every node of the cluster
 */
public record RedisNodes(Topology topology, List<RedisEndpoint> nodes) {

    /** Checks that a standalone target has exactly one server and a cluster at least one node. */
    public RedisNodes {
        nodes = List.copyOf(nodes);
        if (nodes.isEmpty() || (topology == Topology.STANDALONE && nodes.size() != 1)) {
            throw new IllegalArgumentException(
                    "a standalone target has exactly one server and a cluster at least one node, but got "
                            + topology.id() + " with " + nodes.size());
        }
    }

    /**
     * One standalone server.
     *
     * @param server where it listens
     * @return the nodes
     */
    public static RedisNodes standalone(RedisEndpoint server) {
        return new RedisNodes(Topology.STANDALONE, List.of(server));
    }

    /**
     * The nodes of a Redis Cluster.
     *
     * @param nodes every node, or at least one
     * @return the nodes
     */
    public static RedisNodes cluster(List<RedisEndpoint> nodes) {
        return new RedisNodes(Topology.CLUSTER, nodes);
    }

    /**
     * Reads what {@link #arguments()} wrote.
     *
     * @param arguments the topology's id, then one URI per node
     * @return the nodes
     * @throws IllegalArgumentException if the arguments are not of that form
     */
    public static RedisNodes fromArguments(List<String> arguments) {
        if (arguments.size() < 2) {
            throw new IllegalArgumentException(
                    "expected a topology and at least one redis:// URI, but got " + arguments);
        }
        return new RedisNodes(
                Topology.byId(arguments.get(0)),
                arguments.subList(1, arguments.size()).stream()
                        .map(RedisEndpoint::parse)
                        .toList());
    }

    /**
     * The nodes as command-line arguments for a worker process.
     *
     * @return the topology's id, then one {@code redis://} URI per node
     */
    public List<String> arguments() {
        List<String> arguments = new ArrayList<>();
        arguments.add(topology.id());
        nodes.forEach(node -> arguments.add(node.uri()));
        return arguments;
    }

    /**
     * Whether clients must connect in cluster mode.
     *
     * @return true for a Redis Cluster
     */
    public boolean isCluster() {
        return topology == Topology.CLUSTER;
    }

    /**
     * The default user's password, which every node of a cluster shares.
     *
     * @return the password, or null
     */
    public @Nullable String password() {
        return nodes.get(0).password();
    }
}
