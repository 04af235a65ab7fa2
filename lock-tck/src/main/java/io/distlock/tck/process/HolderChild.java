package io.distlock.tck.process;

import io.distlock.Lease;
import io.distlock.LockHandle;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.List;

/**
 * A child JVM that takes a key, prints {@value #HELD} and the hold's fencing token, and holds the key until it is
 * killed. Its lock is built by a {@link ProcessLockFactory}, with a watchdog lease of 2 seconds. Arguments: the
 * factory's class, the store's address, the key, and the lease: {@value #RENEWED} or a fixed lease in milliseconds.
 * Started with {@link #start}, never by hand.
 */
public final class HolderChild {

    /** The start of the line the child prints once it holds the key; its fencing token follows. */
    public static final String HELD = "HELD";

    /** The lease argument of an auto-renewed hold. */
    static final String RENEWED = "renewed";

    private HolderChild() {}

    /**
     * Starts a holder; its ready line starts with {@link #HELD}.
     *
     * @param factory the backend's factory, on the class path of this JVM and so of the child
     * @param address where the store is, as the factory takes it
     * @param key the key to hold
     * @param lease the hold's lease
     * @return the child, connecting
     */
    public static ChildJvm start(Class<? extends ProcessLockFactory> factory, String address, String key, Lease lease) {
        String leaseArg =
                lease.isRenewed() ? RENEWED : Long.toString(lease.duration().toMillis());
        return ChildJvm.start(HolderChild.class, factory.getName(), address, key, leaseArg);
    }

    /**
     * Takes the key and holds it until the process is killed, or exits with 1 if it could not take it.
     *
     * @param args the factory's class, the store's address, the key and the lease
     */
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
        if (args.length != 4) {
            throw new IllegalArgumentException(
                    "expected the factory's class, the store's address, the key and the lease, but got "
                            + List.of(args));
        }
        Lease lease =
                args[3].equals(RENEWED) ? Lease.renewed() : Lease.fixed(Duration.ofMillis(Long.parseLong(args[3])));
        OpenedLock opened = Factories.open(args[0], args[1], ProcessTimes.WATCHDOG_LEASE);
        LockHandle held = opened.lock()
                .tryAcquire(args[2], lease, ProcessTimes.ACQUIRE_WAIT)
                .orElseThrow(() -> new IllegalStateException("the key stayed taken for " + ProcessTimes.ACQUIRE_WAIT));
        System.out.println(HELD + " " + held.fencingToken());
        System.out.flush();
        // Only a test JVM that died without killing its child ends the child's input.
        System.in.transferTo(OutputStream.nullOutputStream());
    }
}
