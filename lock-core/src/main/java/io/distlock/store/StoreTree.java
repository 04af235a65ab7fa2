package io.distlock.store;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.internal.engine.JavaLockView;
import io.distlock.internal.path.PathRules;
import io.distlock.internal.path.ScopedPaths;
import io.distlock.spi.KeyOrder;
import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;

/**
 * The path lock of one tree of a store ({@link io.distlock.Kind#PATH}): a path conflicts with itself, with each of its
 * ancestors and with each of its descendants, while siblings and cousins never conflict. Every method of {@link Lock}
 * takes a path where it takes a key.
 *
 * <p><b>Paths</b> follow the rules of every backend: segments separated by {@code /}, none of them blank, {@code .} or
 * {@code ..}; one leading and one trailing {@code /} are ignored, and {@code ""} or {@code "/"} is the whole tree,
 * which conflicts with every path in it. Segments match whole and exactly. An invalid path is refused with {@link
 * IllegalArgumentException} naming the rule.
 *
 * <p><b>Leases, waiting and loss</b> are those of the store's exclusive lock: leases counted by the store, fencing
 * tokens that rise across the tree, and a hold whose lease ran out reported lost. A waiter tries again when the store
 * says a path may be free; waiters do not queue, so a path may go to a later arrival.
 *
 * <p><b>Re-entering.</b> Inside a scope of this thread that holds a path ({@link io.distlock.LockContext}, {@link
 * #callWithLock}, a {@link #asJavaLock} view), acquiring that path or any path below it joins that hold once the store
 * confirms it: the nested handle's {@link LockHandle#key()} is the held path's. Acquiring an ancestor of a path the
 * thread holds conflicts like any other acquisition and waits; take the ancestor first.
 *
 * <p><b>Several paths</b> are taken one by one in the order of their segments, so that an ancestor comes just before
 * its descendants and no two callers can each hold a path the other waits for; paths that contain each other are
 * refused. A handle's {@link LockHandle#key()} is its canonical path: without a leading or trailing {@code /}, and
 * {@code ""} for the whole tree.
 *
 * <p>Thread-safe. Acquisitions throw {@link IllegalStateException} once the lock that made the tree is closed, {@link
 * LockBackendException} when the store cannot be asked, and, for a nested acquisition whose scope's hold was lost,
 * {@link LockLostException}.
 */
final class StoreTree implements Lock, KeyOrder {

    private final StoreTrees trees;
    private final String tree;

    StoreTree(StoreTrees trees, String tree) {
        this.trees = trees;
        this.tree = tree;
    }

    @Override
    public Optional<LockHandle> tryAcquire(String path, Lease lease) {
        List<String> segments = PathRules.parse(path);
        return trees.using(tree, path, lock -> lock.tryAcquire(scopeKey(lock, segments), lease));
    }

    @Override
    public Optional<LockHandle> tryAcquire(String path, Lease lease, Duration wait) throws InterruptedException {
        List<String> segments = PathRules.parse(path);
        return trees.using(tree, path, lock -> lock.tryAcquire(scopeKey(lock, segments), lease, wait));
    }

    @Override
    public LockHandle acquire(String path, Lease lease) throws InterruptedException {
        List<String> segments = PathRules.parse(path);
        return trees.using(tree, path, lock -> lock.acquire(scopeKey(lock, segments), lease));
    }

    /**
     * {@inheritDoc}
     *
     * <p>A path that a blocking acquisition would join, the path or one below it held by a scope or view of the calling
     * thread, fails at once with {@link IllegalStateException} too.
     */
    @Override
    public CompletionStage<Optional<LockHandle>> tryAcquireAsync(String path, Lease lease, Duration wait) {
        String key;
        String held;
        try {
            List<String> segments = PathRules.parse(path);
            key = PathRules.join(segments);
            held = trees.using(tree, path, lock -> heldInScope(lock, segments, segments.size()));
        } catch (IllegalArgumentException | IllegalStateException e) {
            return CompletableFuture.failedFuture(e);
        }
        return held != null ? ScopedPaths.heldByCallersScope(key, held) : Lock.super.tryAcquireAsync(key, lease, wait);
    }

    @Override
    public java.util.concurrent.locks.Lock asJavaLock(String path, Lease lease) {
        String key = PathRules.join(PathRules.parse(path));
        // The tree's own view checks the arguments and the lock's state; this view re-enters through the tree.
        trees.using(tree, path, lock -> lock.asJavaLock(key, lease));
        return new JavaLockView(this, key, lease, trees.threadOwned());
    }

    /** {@inheritDoc} Paths are ordered segment by segment, each segment compared whole. */
    @Override
    public List<String> order(Collection<String> paths) {
        return PathRules.order(paths);
    }

    /**
     * The key to take on the tree's lock: the innermost ancestor that a scope or view of this thread holds, so that the
     * lock re-enters that hold, or else the path itself, which the lock re-enters if such a scope holds it.
     */
    private static String scopeKey(StoreLock lock, List<String> segments) {
        String ancestor = heldInScope(lock, segments, segments.size() - 1);
        return ancestor != null ? ancestor : PathRules.join(segments);
    }

    /**
     * The innermost path held by a scope or view of this thread among the path's first {@code depth} segments and
     * their ancestors, or null if none is.
     */
    private static @Nullable String heldInScope(StoreLock lock, List<String> segments, int depth) {
        for (int held = depth; held >= 0; held--) {
            String path = PathRules.join(segments.subList(0, held));
            if (lock.heldInScope(path)) {
                return path;
            }
        }
        return null;
    }

    @Override
    public String toString() {
        return "StoreTree[" + tree + "]";
    }
}
