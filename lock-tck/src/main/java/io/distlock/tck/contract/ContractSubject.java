package io.distlock.tck.contract;

import io.distlock.Lease;
import io.distlock.Lock;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What every part of the contract needs from the backend's test: independent clients of the store, keys unique to the
 * test, and threads to run callers on. {@link LockContract} provides the keys and threads; the backend's test provides
 * the clients.
 */
public interface ContractSubject {

    /** How long {@link #connectedClient()} waits for its first acquisition: connecting, however slow the machine. */
    Duration CONNECT_WAIT = Duration.ofSeconds(20);

    /**
     * An independent client of the store under test, standing for another process; the backend's test closes it.
     *
     * @return a new lock client
     */
    Lock newClient();

    /**
     * A new client of the store, as {@link #newClient()}, whose connections are up: it has taken and released a key of
     * its own, with a wait that a busy machine does not run out. A case that times a short wait or a short lease uses
     * it, so that what it times never includes connecting, which on a loaded machine can take longer than the wait.
     *
     * @return a new lock client, connected
     */
    default Lock connectedClient() {
        Lock client = newClient();
        try {
            client.tryAcquire(key("connect:" + UUID.randomUUID()), Lease.fixed(Duration.ofSeconds(30)), CONNECT_WAIT)
                    .orElseThrow(() -> new IllegalStateException("a fresh key stayed taken for " + CONNECT_WAIT))
                    .release();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while connecting a client", e);
        }
        return client;
    }

    /**
     * A key unique to this test run.
     *
     * @param name the key's name within the test
     * @return the key
     */
    String key(String name);

    /**
     * Threads for the callers of one test, stopped after it.
     *
     * @return the test's threads
     */
    ExecutorService contractThreads();

    /**
     * Runs the call on another thread of this test and waits for it, up to 30 seconds.
     *
     * @param call what to run
     * @param <T> what it returns
     * @return what the call returned
     * @throws IllegalStateException wrapping what the call threw, or if it did not end in time
     */
    default <T> T onOtherThread(Callable<T> call) {
        try {
            return contractThreads().submit(call).get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}
