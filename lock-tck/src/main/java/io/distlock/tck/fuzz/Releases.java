package io.distlock.tck.fuzz;

import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.MultiLockHandle;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * How a fuzz worker gives a hold back, in every way the API offers, and whether the lock said it was lost: on the
 * holder's thread, from another thread, without blocking a thread of the lock's, or several keys at once.
 */
final class Releases {

    private static final long HANDOFF_TIMEOUT_SECONDS = 30;

    private final ExecutorService releaser;

    /** Releases handed to another thread run on {@code releaser}. */
    Releases(ExecutorService releaser) {
        this.releaser = releaser;
    }

    /** Releases, telling whether the lock reported it lost. */
    static boolean release(LockHandle handle) {
        try {
            handle.release();
            return false;
        } catch (LockLostException e) {
            return true;
        }
    }

    /** Releases every key, telling which keys the release reported lost. */
    static Set<String> release(MultiLockHandle held) {
        try {
            held.release();
            return Set.of();
        } catch (LockLostException e) {
            Set<String> lost = new HashSet<>();
            lost.add(e.key());
            for (Throwable also : e.getSuppressed()) {
                if (also instanceof LockLostException alsoLost) {
                    lost.add(alsoLost.key());
                }
            }
            return lost;
        }
    }

    /** Releases on another thread, waiting here for the outcome; tells whether it was lost. */
    boolean releaseElsewhere(LockHandle handle) throws InterruptedException, ExecutionException, TimeoutException {
        Future<Boolean> released = releaser.submit(() -> release(handle));
        try {
            return released.get(HANDOFF_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw e;
        }
    }

    /** Releases without blocking a thread of the lock's, waiting here for the outcome; tells whether it was lost. */
    static boolean releaseAsync(LockHandle handle) throws InterruptedException, ExecutionException, TimeoutException {
        try {
            handle.releaseAsync().toCompletableFuture().get(HANDOFF_TIMEOUT_SECONDS, TimeUnit.SECONDS);
            return false;
        } catch (ExecutionException e) {
            if (e.getCause() instanceof LockLostException) {
                return true;
            }
            if (e.getCause() instanceof RuntimeException failure) {
                throw failure;
            }
            throw e;
        }
    }
}
