package io.distlock.redis;

import io.distlock.LockHandle;
import io.distlock.redis.LockCommands.Attempted;
import io.distlock.redis.LockCommands.Busy;
import io.distlock.redis.LockCommands.Granted;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * The wait of the acquisitions that never queue in the {@link WaitingRoom}, readers and paths: try; after a refusal,
 * wait for the next release signal of the key (here or announced from another process) or for the end of the lease
 * that refused, whichever comes first; try again.
 */
final class SignalledWait {

    /** A waiter kept out by a hold without expiry looks again this often. */
    private static final long NO_EXPIRY_RECHECK_MILLIS = 1000;

    /** Sends one attempt. */
    interface Attempts {
        LockCommands.Attempt send(boolean willWait);
    }

    /** Starts the hold of a granted attempt. */
    interface Grants {
        LockHandle held(Granted granted, LockCommands.Attempt attempt);
    }

    private final LockKit kit;
    private final LockCommands commands;
    private final ReleaseSignals releases;

    SignalledWait(LockKit kit, LockCommands commands, ReleaseSignals releases) {
        this.kit = kit;
        this.commands = commands;
        this.releases = releases;
    }

    /**
     * Tries until {@code waitNanos} have passed (0: once; {@link WaitingRoom#FOREVER}: no limit).
     *
     * @param releaseKey the key whose release signals wake this waiter
     * @return the handle, or null if the key stayed held for the whole wait
     */
    @Nullable
    LockHandle take(String key, String releaseKey, long waitNanos, long deadline, Attempts attempts, Grants grants)
            throws InterruptedException {
        boolean answeredBefore = false;
        while (true) {
            if (kit.isClosed()) {
                throw kit.closed(key);
            }
            CompletableFuture<Void> released = releases.next(releaseKey);
            try {
                LockCommands.Attempt attempt = attempts.send(waitNanos != 0);
                Attempted answer = Waits.answer(
                        attempt.call(),
                        commands.answerTimeoutNanos(),
                        deadline,
                        answeredBefore,
                        waitNanos != 0,
                        () -> attempt.abandon(() -> {}));
                if (answer == null) {
                    return null;
                }
                if (!answeredBefore) {
                    answeredBefore = true;
                    kit.startBackgroundWork();
                }
                if (answer instanceof Granted granted) {
                    return grants.held(granted, attempt);
                }
                if (waitNanos == 0) {
                    return null;
                }
                awaitRelease(released, ((Busy) answer).holderTtlMillis(), deadline);
                if (Waits.isOver(deadline)) {
                    return null;
                }
            } finally {
                releases.forget(releaseKey, released);
            }
        }
    }

    /** Waits for a release of the key, at most until the lease that refused ends, or the deadline. */
    private static void awaitRelease(CompletableFuture<Void> released, long holderTtlMillis, long deadline)
            throws InterruptedException {
        long waitNanos = TimeUnit.MILLISECONDS.toNanos(
                holderTtlMillis < 0 ? NO_EXPIRY_RECHECK_MILLIS : Math.min(holderTtlMillis + 1, Integer.MAX_VALUE));
        if (deadline != WaitingRoom.FOREVER) {
            waitNanos = Math.min(waitNanos, deadline - System.nanoTime());
        }
        try {
            released.get(Math.max(0, waitNanos), TimeUnit.NANOSECONDS);
        } catch (TimeoutException e) {
            // The lease that refused has ended, or the wait has: look again.
        } catch (ExecutionException e) {
            throw new IllegalStateException("a release signal cannot fail", e);
        }
    }
}
