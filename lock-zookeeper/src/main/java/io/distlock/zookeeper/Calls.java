package io.distlock.zookeeper;

import io.distlock.LockBackendException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.curator.framework.api.BackgroundCallback;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.KeeperException;

/**
 * Sends Curator operations in the background and waits for their answers without reacting to interrupts. A blocking
 * ZooKeeper call fails at once on an interrupted thread, after the request may have been sent; a holder must still be
 * able to extend and release its lock from an interrupted thread, and a waiter's interrupt is answered in {@code
 * awaitChance}, where nothing is in flight.
 */
final class Calls {

    /** Starts one background operation that reports to the given callback. */
    @FunctionalInterface
    interface Operation {
        void start(BackgroundCallback callback) throws Exception;
    }

    private final Duration timeout;

    Calls(Duration timeout) {
        this.timeout = timeout;
    }

    /**
     * Runs the operation and returns ZooKeeper's answer, whatever its result code.
     *
     * @throws LockBackendException if the operation could not be started or got no answer within the timeout
     */
    CuratorEvent await(String key, String what, Operation operation) {
        return await(key, what, start(key, what, operation));
    }

    /**
     * Starts the operation; the returned answer completes when Curator reports its outcome, after its retries, even
     * after a caller stopped waiting for it.
     *
     * @throws LockBackendException if the operation could not be started
     */
    CompletableFuture<CuratorEvent> start(String key, String what, Operation operation) {
        CompletableFuture<CuratorEvent> answer = new CompletableFuture<>();
        try {
            operation.start((client, event) -> answer.complete(event));
        } catch (Exception e) {
            throw new LockBackendException(key, what + ": could not be sent to ZooKeeper", e);
        }
        return answer;
    }

    /**
     * Waits for the answer of a started operation up to the timeout.
     *
     * @throws LockBackendException if it got no answer within the timeout; the operation may still succeed later
     */
    CuratorEvent await(String key, String what, CompletableFuture<CuratorEvent> answer) {
        boolean interrupted = false;
        long end = System.nanoTime() + timeout.toNanos();
        try {
            while (true) {
                try {
                    return answer.get(end - System.nanoTime(), TimeUnit.NANOSECONDS);
                } catch (InterruptedException e) {
                    interrupted = true;
                } catch (TimeoutException e) {
                    throw new LockBackendException(key, what + ": no answer from ZooKeeper within " + timeout, e);
                } catch (ExecutionException e) {
                    throw new LockBackendException(key, what + ": failed", e.getCause());
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    static KeeperException.Code code(CuratorEvent event) {
        return KeeperException.Code.get(event.getResultCode());
    }

    /** The exception for an answer that is neither success nor one of the codes the caller expects. */
    static LockBackendException failure(String key, String what, CuratorEvent event) {
        KeeperException.Code code = code(event);
        return new LockBackendException(
                key, what + ": ZooKeeper answered " + code, KeeperException.create(code, event.getPath()));
    }
}
