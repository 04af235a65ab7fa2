package io.distlock.tck.fuzz;

import io.distlock.memory.InMemoryLeaseStore;
import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLease;
import io.distlock.store.StoreLock;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * A fuzz lock for a run of one worker process: {@link StoreLock} over an {@link InMemoryLeaseStore} of the worker's
 * own, which needs no server, with a view of the holders it granted. Each worker it opens in appends its process id to
 * the file of the option {@value #PIDS}, so that a test sees which JVM served which run. Besides the working lock
 * ({@link #WORKS}) it breaks a worker on request: {@link #FAILS_TO_OPEN} fails the worker's run before it is ready,
 * {@link #LEAVES_A_THREAD} leaves a thread running after its lock is closed.
 */
public final class InMemoryFuzzLocks implements FuzzLockFactory {

    static final String PIDS = "pids";
    static final String WORKS = "WORKS";
    static final String FAILS_TO_OPEN = "FAILS_TO_OPEN";
    static final String LEAVES_A_THREAD = "LEAVES_A_THREAD";
    static final String LEFT_THREAD = "left-behind-by-the-test";

    /** Instantiated by name in the worker. */
    public InMemoryFuzzLocks() {}

    @Override
    public LockUnderTest open(FuzzTarget target) {
        appendPid(Path.of(target.options().get(PIDS)));
        if (target.variant().equals(FAILS_TO_OPEN)) {
            throw new IllegalStateException("this lock fails to open, as asked");
        }
        if (target.variant().equals(LEAVES_A_THREAD)) {
            Thread left = new Thread(InMemoryFuzzLocks::waitForever, LEFT_THREAD);
            left.setDaemon(true);
            left.start();
        }
        HolderStore store = new HolderStore(new InMemoryLeaseStore());
        StoreLock lock = StoreLock.builder(store)
                .watchdogLease(target.watchdogLease())
                .shutdownGracePeriod(Duration.ZERO)
                .build();
        return LockUnderTest.builder(lock, (lockKey, ownerToken) -> store.read(lockKey))
                .onClose(lock::close)
                .build();
    }

    /** A run of one process on this factory's {@code variant}, recording its workers' process ids in {@code pids}. */
    static FuzzLock lock(String variant, Path pids) {
        return new FuzzLock(
                "in-memory StoreLock (" + variant + ")",
                InMemoryFuzzLocks.class,
                variant,
                SectionMix.EXCLUSIVE,
                Map.of(PIDS, pids.toString()));
    }

    private static void appendPid(Path pids) {
        try {
            Files.writeString(
                    pids,
                    ProcessHandle.current().pid() + "\n",
                    StandardCharsets.UTF_8,
                    StandardOpenOption.CREATE,
                    StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void waitForever() {
        try {
            new CountDownLatch(1).await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The in-memory store, which remembers who took each key last, for the view: the key's holder while the store
     * still counts a lease on it, until the lease's end by the store's own count.
     */
    private static final class HolderStore implements LeaseStore {

        private final LeaseStore store;
        private final Map<String, String> owners = new ConcurrentHashMap<>();

        HolderStore(LeaseStore store) {
            this.store = store;
        }

        HolderRead read(String key) {
            long now = System.currentTimeMillis();
            String owner = owners.get(key);
            return store.remainingLease(key)
                    .filter(remaining -> owner != null)
                    .map(remaining -> HolderRead.until(owner, now + remaining.toMillis()))
                    .orElse(HolderRead.none());
        }

        @Override
        public Acquisition begin(String key, String owner, Duration lease) {
            Acquisition acquisition = store.begin(key, owner, lease);
            return new Acquisition() {
                @Override
                public StoreLease tryTake() {
                    StoreLease granted = acquisition.tryTake();
                    if (granted != null) {
                        owners.put(key, owner);
                    }
                    return granted;
                }

                @Override
                public void awaitChance(long deadlineNanos) throws InterruptedException {
                    acquisition.awaitChance(deadlineNanos);
                }

                @Override
                public void close() {
                    acquisition.close();
                }
            };
        }

        @Override
        public Optional<Duration> remainingLease(String key) {
            return store.remainingLease(key);
        }

        @Override
        public void ping() {
            store.ping();
        }

        @Override
        public String describe() {
            return store.describe();
        }

        @Override
        public void close() {
            store.close();
        }
    }
}
