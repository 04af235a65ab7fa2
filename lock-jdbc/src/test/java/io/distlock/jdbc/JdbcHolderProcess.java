package io.distlock.jdbc;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.store.StoreLock;
import java.time.Duration;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A separate JVM that takes a lock in PostgreSQL, says so on stdout and holds it until it is killed. Arguments: the
 * server's port, the key, the watchdog lease in ms, and "renewed" or a fixed lease in ms.
 */
public final class JdbcHolderProcess {

    private JdbcHolderProcess() {}

    public static void main(String[] args) throws Exception {
        StoreLock lock = StoreLock.builder(JdbcLeaseStore.builder(postgres(Integer.parseInt(args[0])))
                        .build())
                .watchdogLease(Duration.ofMillis(Long.parseLong(args[2])))
                .build();
        Lease lease =
                args[3].equals("renewed") ? Lease.renewed() : Lease.fixed(Duration.ofMillis(Long.parseLong(args[3])));
        LockHandle held = lock.acquire(args[1], lease);
        System.out.println("HELD " + held.fencingToken());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }

    /** A plain data source of the embedded server's postgres database, as {@link TestPostgres} gives it. */
    static PGSimpleDataSource postgres(int port) {
        PGSimpleDataSource dataSource = new PGSimpleDataSource();
        dataSource.setServerNames(new String[] {"localhost"});
        dataSource.setPortNumbers(new int[] {port});
        dataSource.setDatabaseName("postgres");
        dataSource.setUser("postgres");
        return dataSource;
    }
}
