package io.distlock.zookeeper;

import io.distlock.Lease;
import io.distlock.LockHandle;
import java.time.Duration;

/**
 * A separate JVM that takes a lock with a long fixed lease, says so on stdout and holds it until it is killed.
 * Arguments: connect string, key, session timeout in ms.
 */
public final class HolderProcess {

    private HolderProcess() {}

    public static void main(String[] args) throws Exception {
        Duration session = Duration.ofMillis(Long.parseLong(args[2]));
        LockHandle held = ProcessSupport.lock(args[0], session).acquire(args[1], Lease.fixed(Duration.ofMinutes(5)));
        System.out.println("HELD " + held.fencingToken());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
