package io.distlock.store;

import io.distlock.monitor.BackendState;
import io.distlock.monitor.HeldLock;
import io.distlock.monitor.InspectableLock;
import io.distlock.monitor.KeyState;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * What {@link StoreLock} answers as an {@link io.distlock.monitor.InspectableLock}: holds and waiters from memory, and
 * a key's state and a health check from the store, through reads that change nothing.
 */
final class StoreInspection implements InspectableLock {

    private final LeaseStore store;
    private final StoreHolds holds;
    private final Supplier<List<HeldLock>> alsoHeld;
    private final BooleanSupplier closed;
    private final Map<String, AtomicInteger> waiting = new ConcurrentHashMap<>();

    /**
     * @param alsoHeld the holds of the lock's semaphores, which its view of held locks lists too
     * @param closed whether the lock is closed, which its health shows
     */
    StoreInspection(LeaseStore store, StoreHolds holds, Supplier<List<HeldLock>> alsoHeld, BooleanSupplier closed) {
        this.store = store;
        this.holds = holds;
        this.alsoHeld = alsoHeld;
        this.closed = closed;
    }

    void waitStarted(String key) {
        waiting.computeIfAbsent(key, k -> new AtomicInteger()).incrementAndGet();
    }

    void waitEnded(String key) {
        waiting.computeIfPresent(key, (k, count) -> count.decrementAndGet() == 0 ? null : count);
    }

    @Override
    public Map<String, Integer> waitingThreads() {
        Map<String, Integer> counts = new TreeMap<>();
        waiting.forEach((key, count) -> {
            int now = count.get();
            if (now > 0) {
                counts.put(key, now);
            }
        });
        return counts;
    }

    @Override
    public int waitingCount() {
        return waiting.values().stream().mapToInt(AtomicInteger::get).sum();
    }

    @Override
    public List<HeldLock> heldLocks() {
        List<HeldLock> semaphores = alsoHeld.get();
        List<HeldLock> own = holds.snapshot().stream().map(StoreHold::view).toList();
        return semaphores.isEmpty()
                ? own
                : Stream.concat(own.stream(), semaphores.stream()).toList();
    }

    @Override
    public int heldCount() {
        return holds.count() + alsoHeld.get().size();
    }

    @Override
    public KeyState keyState(String key) {
        Optional<LeaseReading> reading = store.readLease(key);
        return new KeyState(
                key,
                reading.isPresent(),
                reading.map(LeaseReading::remaining).orElse(null),
                holds.holdsKey(key),
                reading.map(LeaseReading::holder).orElse(null),
                reading.map(LeaseReading::since).orElse(null));
    }

    @Override
    public boolean releaseForOperator(String key, long fencingToken) {
        return store.releaseForOperator(key, fencingToken);
    }

    @Override
    public BackendState checkBackend() {
        boolean closed = this.closed.getAsBoolean();
        long start = System.nanoTime();
        try {
            store.ping();
            return new BackendState(
                    true,
                    Duration.ofNanos(System.nanoTime() - start),
                    null,
                    !closed,
                    closed ? BackendState.Subscription.CLOSED : BackendState.Subscription.NONE);
        } catch (RuntimeException e) {
            return new BackendState(
                    false,
                    null,
                    String.valueOf(e.getMessage()),
                    !closed,
                    closed ? BackendState.Subscription.CLOSED : BackendState.Subscription.NONE);
        }
    }
}
