package io.distlock.redis;

import io.distlock.Lease;
import io.distlock.LockHandle;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;

/**
 * A separate JVM that takes a path of a tree, prints "HELD" and the hold's fencing token once it holds it, and holds
 * it until it is killed; it exits with 1 if it could not take the path. Arguments: the Redis URI, the watchdog lease in
 * ms, "renewed" or a fixed lease in ms, the tree and the path.
 */
public final class PathHolderProcess {

    static final String HELD = "HELD";

    private static final Duration ACQUIRE_WAIT = Duration.ofMinutes(1);

    private PathHolderProcess() {}

    public static void main(String[] args) {
        int status = 0;
        try {
            hold(args);
        } catch (IOException | InterruptedException | RuntimeException e) {
            e.printStackTrace(System.out);
            status = 1;
        }
        System.out.flush();
        // The lock's threads must not keep the process alive.
        System.exit(status);
    }

    private static void hold(String[] args) throws IOException, InterruptedException {
        Lease lease =
                args[2].equals("renewed") ? Lease.renewed() : Lease.fixed(Duration.ofMillis(Long.parseLong(args[2])));
        LockHandle held = new RedisProcessLocks()
                .open(args[0], Duration.ofMillis(Long.parseLong(args[1])))
                .lock()
                .tree(args[3])
                .tryAcquire(args[4], lease, ACQUIRE_WAIT)
                .orElseThrow(() -> new IllegalStateException("the path stayed taken for " + ACQUIRE_WAIT));
        System.out.println(HELD + " " + held.fencingToken());
        System.out.flush();
        // Only a test JVM that died without killing this one ends its input.
        System.in.transferTo(OutputStream.nullOutputStream());
    }
}
