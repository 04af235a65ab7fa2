package io.distlock.memory;

import io.distlock.LockLostException;
import io.distlock.store.StoreLease;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Optional;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * One owner's hold on a key, as its only holder or one of its readers, on one of a semaphore key's permits, or on a path
 * of a tree, in an
 * {@link InMemoryLeaseStore}: held until
 * {@link #expiresAtNanos()} on the JVM's monotonic clock unless extended, and while the store still has it.
 */
final class InMemoryGrant implements StoreLease {

    private final InMemoryLeaseStore store;
    private final String key;
    private final InMemoryHolds.Side side;
    private final List<String> path;
    private final String owner;
    private final @Nullable String holder;
    private final Instant since;
    private final long fencingToken;
    /** Guarded by the store's monitor. */
    private long expiresAtNanos;
    /** Guarded by the store's monitor; null once told, or until registered. */
    private @Nullable Consumer<LockLostException.Reason> whenGone;

    private LockLostException.@Nullable Reason goneFor;

    /**
     * @param key the key, or for a path, its tree
     * @param path for a path, its segments; else empty
     */
    InMemoryGrant(
            InMemoryLeaseStore store,
            String key,
            InMemoryHolds.Side side,
            List<String> path,
            String owner,
            @Nullable String holder,
            Instant since,
            long fencingToken,
            long expiresAtNanos) {
        this.store = store;
        this.key = key;
        this.side = side;
        this.path = path;
        this.owner = owner;
        this.holder = holder;
        this.since = since;
        this.fencingToken = fencingToken;
        this.expiresAtNanos = expiresAtNanos;
    }

    String key() {
        return key;
    }

    /** For a path, its segments, root first; else empty. */
    List<String> path() {
        return path;
    }

    /** How this grant holds its key: alone, as a reader, as one of its permits, or as a path of a tree. */
    InMemoryHolds.Side side() {
        return side;
    }

    @Nullable
    String holder() {
        return holder;
    }

    Instant since() {
        return since;
    }

    /** Guarded by the store's monitor. */
    long expiresAtNanos() {
        return expiresAtNanos;
    }

    /** Guarded by the store's monitor. */
    boolean liveAt(long nowNanos) {
        return expiresAtNanos - nowNanos > 0;
    }

    /** Whether the store still has this grant and its lease has not run out; guarded by the store's monitor. */
    private boolean isCurrent(long nowNanos) {
        return store.isHeld(this) && liveAt(nowNanos);
    }

    @Override
    public long fencingToken() {
        return fencingToken;
    }

    @Override
    public boolean extend(Duration lease) {
        synchronized (store.monitor()) {
            long now = System.nanoTime();
            if (!isCurrent(now)) {
                return false;
            }
            expiresAtNanos = now + lease.toNanos();
            // Waiters sleep until the end they saw; a shortened lease must wake them to see the new one.
            store.monitor().notifyAll();
            return true;
        }
    }

    /** The grant is current while the store has it and its lease has not run out on this JVM's clock. */
    @Override
    public Optional<LockLostException.Reason> checkOwned() {
        synchronized (store.monitor()) {
            if (isCurrent(System.nanoTime())) {
                return Optional.empty();
            }
            return Optional.of(goneFor != null ? goneFor : LockLostException.Reason.KEY_GONE);
        }
    }

    @Override
    public boolean release() {
        synchronized (store.monitor()) {
            boolean held = isCurrent(System.nanoTime());
            if (store.isHeld(this)) {
                store.drop(this);
            }
            return held;
        }
    }

    @Override
    public void whenGone(Consumer<LockLostException.Reason> gone) {
        LockLostException.Reason already;
        synchronized (store.monitor()) {
            already = goneFor;
            if (already == null) {
                whenGone = gone;
            }
        }
        if (already != null) {
            gone.accept(already);
        }
    }

    /** Tells the holder, once, that an operator freed its key. */
    void gone(LockLostException.Reason reason) {
        Consumer<LockLostException.Reason> told;
        synchronized (store.monitor()) {
            goneFor = reason;
            told = whenGone;
            whenGone = null;
        }
        if (told != null) {
            told.accept(reason);
        }
    }

    @Override
    public String toString() {
        return switch (side) {
                    case KEY -> "Grant[";
                    case READ -> "Read[";
                    case PERMIT -> "Permit[";
                    case PATH -> "Path[" + String.join("/", path) + " of ";
                }
                + key + ", owner " + owner + ", token " + fencingToken + "]";
    }
}
