package io.distlock.tck.contract;

import io.distlock.Lock;
import java.time.Duration;

/**
 * A store that a test makes unreachable for one client, for {@link StoreOutageContract}: a stopped, paused or proxied
 * server, whatever the backend's tests can do. The contract first uses {@link #client()} while the store answers, then
 * calls {@link #begin()}, and {@link #close()} when its call ended.
 */
public interface StoreOutage extends AutoCloseable {

    /**
     * A client of the store that the outage cuts off, independent of the test's other clients; the backend's test
     * closes it after the test.
     *
     * @return the client
     */
    Lock client();

    /** Makes the store unreachable for {@link #client()} until {@link #close()}: calls then get no answer or fail. */
    void begin();

    /**
     * How long {@link #client()} waits for the answer to one call before it gives up with {@code
     * LockBackendException}: {@link Lock#acquire(String, io.distlock.Lease)} has no wait of its own, and ends within
     * this while the store is down.
     *
     * @return the client's call timeout
     */
    Duration callTimeout();

    /**
     * Makes the store reachable again and returns once it answers. Calls given up on during the outage may still
     * reach it afterwards: the contract then checks that they leave nothing held.
     */
    @Override
    void close();
}
