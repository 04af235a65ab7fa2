package io.distlock.bench.backend;

import io.distlock.bench.contender.ContenderKind;
import io.distlock.bench.contender.LockStore;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/**
 * The servers of the backends other than Redis that the run's contenders lock on, started like the Redlock's servers:
 * throwaway, on free ports, one of each kind that some contender needs and none otherwise. The contenders of one
 * backend share its server, as the contenders on Redis share the target; contenders never run at the same time.
 */
public final class BackendServers implements AutoCloseable {

    private final @Nullable PostgresServer postgres;
    private final @Nullable ZooKeeperServer zooKeeper;

    private BackendServers(@Nullable PostgresServer postgres, @Nullable ZooKeeperServer zooKeeper) {
        this.postgres = postgres;
        this.zooKeeper = zooKeeper;
    }

    /**
     * Starts the servers that {@code kinds} lock on, and creates the JDBC contenders' tables.
     *
     * @param kinds the contenders that will run
     * @return the servers; close them to stop them
     */
    public static BackendServers start(Collection<ContenderKind> kinds) {
        PostgresServer postgres = needs(kinds, LockStore.POSTGRESQL) ? PostgresServer.start() : null;
        try {
            ZooKeeperServer zooKeeper = needs(kinds, LockStore.ZOOKEEPER) ? ZooKeeperServer.start() : null;
            return new BackendServers(postgres, zooKeeper);
        } catch (RuntimeException e) {
            if (postgres != null) {
                postgres.close();
            }
            throw e;
        }
    }

    private static boolean needs(Collection<ContenderKind> kinds, LockStore store) {
        return kinds.stream().anyMatch(kind -> kind.store() == store);
    }

    /**
     * Where a contender of another backend locks, as its client takes it.
     *
     * @param kind the contender
     * @return the JDBC URL or ZooKeeper connect string; empty for a contender on Redis
     * @throws IllegalArgumentException if the contender's server was not started
     */
    public Optional<String> address(ContenderKind kind) {
        return switch (kind.store()) {
            case REDIS -> Optional.empty();
            case POSTGRESQL -> Optional.of(started(postgres, kind).jdbcUrl());
            case ZOOKEEPER -> Optional.of(started(zooKeeper, kind).connectString());
        };
    }

    private static <T> T started(@Nullable T server, ContenderKind kind) {
        if (server == null) {
            throw new IllegalArgumentException("no " + kind.store() + " server was started for " + kind.label());
        }
        return server;
    }

    /**
     * What was started, for the progress output and the results.
     *
     * @return one description per server; empty if none was needed
     */
    public List<String> descriptions() {
        List<String> descriptions = new ArrayList<>();
        if (postgres != null) {
            descriptions.add(postgres.description());
        }
        if (zooKeeper != null) {
            descriptions.add(zooKeeper.description());
        }
        return descriptions;
    }

    @Override
    public void close() {
        try {
            if (zooKeeper != null) {
                zooKeeper.close();
            }
        } finally {
            if (postgres != null) {
                postgres.close();
            }
        }
    }
}
