package io.distlock.bench.contender;

/**
 * Where a contender of another backend than Redis locks, as its client takes it: a JDBC URL or a ZooKeeper connect
 * string, and how many connections each worker JVM may open to it.
 *
 * @param address the JDBC URL, with its user, or the connect string
 * @param connections the size of each worker's connection pool: at least the most threads a scenario runs, so that no
 *     thread waits for a connection instead of for the lock
 */
public record BackendEndpoint(String address, int connections) {

    /** Checks the endpoint, which travels on a worker's command line. */
    public BackendEndpoint {
        if (address.isBlank() || address.chars().anyMatch(Character::isWhitespace)) {
            throw new IllegalArgumentException("a backend address is one word, but got '" + address + "'");
        }
        if (connections < 1) {
            throw new IllegalArgumentException("a worker needs at least one connection, not " + connections);
        }
    }
}
