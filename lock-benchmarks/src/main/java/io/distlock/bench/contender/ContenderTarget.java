package io.distlock.bench.contender;

import java.util.ArrayList;
import java.util.List;
import org.jspecify.annotations.Nullable;

/**
 * What a worker's contender connects to: the Redis under test, which every worker also uses for the harness's checks,
 * and for a contender of another backend that backend's server. It travels to worker processes as command-line
 * arguments: for another backend its address and pool size, then the Redis as {@link RedisNodes#arguments()} writes it.
 *
 * @param redis the Redis under test, or a Redlock's masters
 * @param backend the other backend's server, or null for a contender on Redis
 */
public record ContenderTarget(RedisNodes redis, @Nullable BackendEndpoint backend) {

    /**
     * Reads what {@link #arguments()} wrote for a contender.
     *
     * @param kind the contender, which tells whether a backend's arguments come first
     * @param arguments the arguments after the contender's id
     * @return the target
     * @throws IllegalArgumentException if the arguments are not of that form
     */
    public static ContenderTarget fromArguments(ContenderKind kind, List<String> arguments) {
        if (!kind.isOtherBackend()) {
            return new ContenderTarget(RedisNodes.fromArguments(arguments), null);
        }
        if (arguments.size() < 2) {
            throw new IllegalArgumentException(
                    kind.id() + " needs its backend's address and pool size first, but got " + arguments);
        }
        return new ContenderTarget(
                RedisNodes.fromArguments(arguments.subList(2, arguments.size())),
                new BackendEndpoint(arguments.get(0), Integer.parseInt(arguments.get(1))));
    }

    /**
     * The target as command-line arguments for a worker process.
     *
     * @return the backend's address and pool size, if any, then the Redis nodes
     */
    public List<String> arguments() {
        List<String> arguments = new ArrayList<>();
        if (backend != null) {
            arguments.add(backend.address());
            arguments.add(Integer.toString(backend.connections()));
        }
        arguments.addAll(redis.arguments());
        return arguments;
    }

    /**
     * The other backend's server, which a contender of another backend cannot do without.
     *
     * @param kind the contender asking
     * @return the server
     * @throws IllegalArgumentException if there is none
     */
    BackendEndpoint backend(ContenderKind kind) {
        if (backend == null) {
            throw new IllegalArgumentException(
                    kind.label() + " locks on " + kind.store() + ", but was given no server");
        }
        return backend;
    }
}
