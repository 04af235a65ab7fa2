package io.distlock.test.contract;

import io.distlock.Lock;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * What every part of the contract needs from the backend's test: independent clients of the store, keys unique to the
 * test, and threads to run callers on. {@link LockContract} provides the keys and threads; the backend's test provides
 * the clients.
 */
public interface ContractSubject {

    /**
     * An independent client of the store under test, standing for another process; the backend's test closes it.
     *
     * @return a new lock client
     */
    Lock newClient();

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
