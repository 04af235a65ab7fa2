package io.distlock.bench.contender;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * The Redis under test as clients connect to it: one standalone server, the nodes of a Redis Cluster, which cluster
 * clients use as seeds to discover who serves which slot, or a Redlock's independent masters. It travels to worker processes as command-line
 * arguments: the topology's id, then one {@code redis://} URI per node.
 *
 * @param topology standalone, cluster or independent masters
 * @param nodes the server, every node of the cluster, or every master
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
     * Independent masters, each a standalone server, as a Redlock uses them.
     *
     * @param masters every master
     * @return the nodes
     */
    public static RedisNodes independent(List<RedisEndpoint> masters) {
        return new RedisNodes(Topology.INDEPENDENT, masters);
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
     * Where the harness keeps what all processes of a contender must share, scenario 4's cross-process counter: the
     * target itself, or the first of independent masters, so that the check's commands land on a server the lock uses,
     * as they do for single-node distlock.
     *
     * @return one server or a cluster
     */
    public RedisNodes sharedState() {
        return topology == Topology.INDEPENDENT ? standalone(nodes.get(0)) : this;
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
