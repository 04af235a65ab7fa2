package io.distlock.bench.contender;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import java.time.Duration;
import java.util.Optional;
import org.jspecify.annotations.Nullable;

/** How the contenders built on distlock's {@link Lock} take a key: a fixed lease, a bounded wait. */
final class LockCalls {

    private LockCalls() {}

    /**
     * Takes {@code key} with a fixed lease, waiting up to {@code wait}.
     *
     * @return how to release it, or null if the key stayed taken for the whole wait
     */
    static Contender.@Nullable Release tryAcquire(Lock lock, String key, Duration lease, Duration wait)
            throws InterruptedException {
        Optional<LockHandle> handle = lock.tryAcquire(key, Lease.fixed(lease), wait);
        return handle.isPresent() ? handle.get()::release : null;
    }
}
