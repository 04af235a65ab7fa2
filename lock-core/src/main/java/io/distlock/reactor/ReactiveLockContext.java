package io.distlock.reactor;

import io.distlock.Lock;
import io.distlock.LockHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.jspecify.annotations.Nullable;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;
import reactor.util.context.ContextView;

/**
 * The locks held for a reactive pipeline, kept in its Reactor {@link Context} rather than in a thread: the reactive
 * counterpart of {@link io.distlock.LockContext}. {@link ReactiveLock#withLock} and {@link ReactiveLock#withLockMany},
 * and {@code @DistributedLock} methods returning {@code Mono} or {@code Flux}, put the handle into the context of the
 * publisher they run under the lock, so code inside that publisher can read it:
 *
 * <pre>{@code
 * ReactiveLockContext.current("stock:" + sku)
 *         .flatMap(held -> repository.save(item, held.fencingToken()));
 * }</pre>
 *
 * <p>The context also makes holds reach nested work: a {@code withLock} (or a locked reactive method) on the same key
 * and the same {@link Lock} inside a publisher that already holds it runs under that hold, without a new acquisition,
 * since the outer hold lasts until the inner publisher ends.
 */
public final class ReactiveLockContext {

    /** The key of the Reactor {@link Context} entry: an immutable list of the holds, innermost last. */
    public static final Class<ReactiveLockContext> CONTEXT_KEY = ReactiveLockContext.class;

    private ReactiveLockContext() {}

    /**
     * The innermost lock with the given key held for the subscriber's pipeline, whichever {@link Lock} took it.
     *
     * @param key the lock's key
     * @return a Mono of the handle, empty if no enclosing publisher holds that key
     */
    public static Mono<LockHandle> current(String key) {
        return Mono.deferContextual(context -> Mono.justOrEmpty(find(context, null, key)));
    }

    /**
     * The innermost lock with the given key held in a context, through {@code lock}, or through any lock if null.
     *
     * @param context the subscriber's context
     * @param lock the lock that took the hold, or null for any
     * @param key the lock's key
     * @return the handle, or empty
     */
    static Optional<LockHandle> find(ContextView context, @Nullable Lock lock, String key) {
        List<Held> holds = holds(context);
        for (int i = holds.size() - 1; i >= 0; i--) {
            Held held = holds.get(i);
            if (held.handle().key().equals(key) && (lock == null || held.lock() == lock)) {
                return Optional.of(held.handle());
            }
        }
        return Optional.empty();
    }

    /** The context with one more hold, innermost. */
    static Context with(Context context, Lock lock, LockHandle handle) {
        List<Held> holds = new ArrayList<>(holds(context));
        holds.add(new Held(lock, handle));
        return context.put(CONTEXT_KEY, List.copyOf(holds));
    }

    private static List<Held> holds(ContextView context) {
        return context.getOrDefault(CONTEXT_KEY, List.of());
    }

    /** A hold and the lock that took it, which nested work must match to join it. */
    record Held(Lock lock, LockHandle handle) {}
}
