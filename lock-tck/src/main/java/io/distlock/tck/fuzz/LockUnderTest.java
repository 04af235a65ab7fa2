package io.distlock.tck.fuzz;

import io.distlock.Lock;
import java.util.Objects;

/**
 * The lock a fuzz worker drives, behind the {@link Lock} interface, as its {@link FuzzLockFactory} built it: the lock
 * (or a read-write lock's writer and reader), the view the checker reads its state through, and the name under which
 * the view finds the lock of each key.
 */
public final class LockUnderTest implements AutoCloseable {

    private final Lock lock;
    private final Lock reader;
    private final LockView view;
    private final LockKeys lockKeys;
    private final Runnable closer;
    private final boolean warmUp;

    private LockUnderTest(Builder builder) {
        this.lock = builder.lock;
        this.reader = builder.reader;
        this.view = builder.view;
        this.lockKeys = builder.lockKeys;
        this.closer = builder.closer;
        this.warmUp = builder.warmUp;
    }

    /**
     * Starts the lock under test.
     *
     * @param lock the lock the sections take: the only one, or a read-write lock's writer
     * @param view the view through which the checker reads the state of its keys
     * @return a builder
     */
    public static Builder builder(Lock lock, LockView view) {
        return new Builder(lock, view);
    }

    /** Where the view finds the lock of a key: the name passed to {@link LockView#read}. */
    @FunctionalInterface
    public interface LockKeys {

        /**
         * The lock key of {@code key}.
         *
         * @param key the key a section's handle reports ({@link io.distlock.LockHandle#key()}); for a lock of paths,
         *     the canonical path
         * @param reading whether the section holds the reader lock of a read-write lock
         * @return the name the view reads the lock's state under
         */
        String lockKey(String key, boolean reading);
    }

    /** The lock under test, as its factory assembles it. */
    public static final class Builder {

        private final Lock lock;
        private final LockView view;
        private Lock reader;
        private LockKeys lockKeys = (key, reading) -> key;
        private Runnable closer = () -> {};
        private boolean warmUp = true;

        private Builder(Lock lock, LockView view) {
            this.lock = Objects.requireNonNull(lock, "lock");
            this.view = Objects.requireNonNull(view, "view");
        }

        /**
         * The lock that a read-write run's readers take ({@link SectionMix#READ_WRITE}).
         *
         * @param reader the reader lock
         * @return this builder
         */
        public Builder readers(Lock reader) {
            this.reader = Objects.requireNonNull(reader, "reader");
            return this;
        }

        /**
         * Where the view finds the lock of each key; by default under the key itself.
         *
         * @param lockKeys the lock keys
         * @return this builder
         */
        public Builder lockKeys(LockKeys lockKeys) {
            this.lockKeys = Objects.requireNonNull(lockKeys, "lockKeys");
            return this;
        }

        /**
         * What closes the lock, its view and their connections once the worker is done.
         *
         * @param closer closes everything the factory opened
         * @return this builder
         */
        public Builder onClose(Runnable closer) {
            this.closer = Objects.requireNonNull(closer, "closer");
            return this;
        }

        /**
         * Starts the run without first taking and releasing each key once and reading it as the checker does. The
         * warm-up lets the lock's and the view's clients connect to every server before the run starts, not in its
         * first seconds; a lock whose clients are connected as it is built can do without.
         *
         * @return this builder
         */
        public Builder withoutWarmUp() {
            this.warmUp = false;
            return this;
        }

        /**
         * Builds the lock under test.
         *
         * @return the lock under test
         */
        public LockUnderTest build() {
            return new LockUnderTest(this);
        }
    }

    Lock lock() {
        return lock;
    }

    /** The lock of a reader if {@code reading}, of a writer (or exclusive holder) otherwise. */
    Lock lock(boolean reading) {
        if (!reading) {
            return lock;
        }
        if (reader == null) {
            throw new IllegalStateException(lock + " has no readers in this run");
        }
        return reader;
    }

    /** Where the view finds the lock of {@code key}, a reader's if {@code reading}. */
    String lockKey(String key, boolean reading) {
        return lockKeys.lockKey(key, reading);
    }

    LockView view() {
        return view;
    }

    /** Whether the worker takes each key once, and reads it, before the run starts. */
    boolean warmsUp() {
        return warmUp;
    }

    /** Closes the lock, its view and their connections. */
    @Override
    public void close() {
        closer.run();
    }
}
