package io.distlock.redis;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.internal.engine.JavaLockView;
import io.distlock.internal.path.PathRules;
import io.distlock.internal.path.ScopedPaths;
import io.distlock.internal.text.PrintableText;
import io.distlock.monitor.LockKind;
import io.distlock.redis.internal.engine.Hold;
import io.distlock.redis.internal.engine.Holds;
import io.distlock.redis.internal.engine.LeaseAsked;
import io.distlock.redis.internal.engine.LockKit;
import io.distlock.redis.internal.engine.SignalledWait;
import io.distlock.redis.internal.path.PathCommands;
import io.distlock.redis.internal.path.PathLocks;
import io.distlock.redis.internal.path.TreePath;
import io.distlock.redis.internal.waiting.Waits;
import io.distlock.spi.KeyOrder;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;

/**
 * Locks on paths in one named tree, such as the folders of a project: a path conflicts with itself, with each of its
 * ancestors and with each of its descendants, while siblings and cousins never conflict. With {@code project/A/C} held,
 * {@code project/A/C/D} and {@code project/A} are refused and {@code project/A/B} is granted. Get it from {@link
 * RedisLock#tree(String)}; every method of {@link Lock} takes a path where it takes a key.
 *
 * <p><b>Paths.</b> A path is segments separated by {@code /}, such as {@code "A/C"}; build one from segments with
 * {@link #path(String...)}. One leading and one trailing {@code /} are ignored, and {@code ""} or {@code "/"} is the
 * whole tree, which conflicts with every path in it. A segment is any text without {@code /} that is not blank,
 * {@code .} or {@code ..}: Unicode, spaces and characters such as {@code - % . * { }} are plain text. Segments match
 * whole and exactly, case and Unicode form included ({@code a/b} and {@code a/bc} never conflict; normalize names
 * first if your file system does). Paths with a blank segment ({@code a//b}, {@code a/ /b}), {@code .} or {@code ..}
 * are refused with {@link IllegalArgumentException} rather than guessed at. At most {@value TreePath#MAX_DEPTH}
 * segments and {@value Lock#MAX_KEY_LENGTH} characters.
 *
 * <p><b>Cost.</b> One script per acquisition and one per release, touching the path's own keys and one key per
 * ancestor: O(depth), however many paths the tree holds. All keys of a tree share one hash tag, so a tree lives in
 * one Redis Cluster slot (and different trees spread over the cluster).
 *
 * <p><b>Leases, as for keys.</b> Every hold has a lease counted by Redis, fixed or renewed; {@link
 * LockHandle#isLost()}, {@link LockHandle#onLost} and {@link io.distlock.LockLostException} on release report a lost
 * lease as for the exclusive lock. A holder that dies frees its path and its ancestors within its lease, without help.
 * Fencing tokens come from one counter per tree, so any two conflicting holds are ordered by their tokens.
 *
 * <p><b>Waiting.</b> A waiter is woken by any release in its tree, here or in another process, and tries again; at the
 * latest it tries again when the lease that refused it ends. Waiters do not queue: a path may be taken by a later
 * arrival. Waiting forms end when their wait ends (empty), when interrupted ({@link InterruptedException}, holding
 * nothing), or with {@link io.distlock.LockBackendException} when Redis does not answer.
 *
 * <p><b>Re-entering.</b> Inside a scope of this thread that holds a path ({@link io.distlock.LockContext}, {@link
 * #callWithLock}, a {@link #asJavaLock} view), acquiring that path or any path below it joins that hold: the nested
 * handle's {@link LockHandle#key()} is the held path's. Acquiring an ancestor of a path the thread holds conflicts
 * like any other acquisition and waits; take the ancestor first.
 *
 * <p><b>Several paths</b> ({@link #acquireAll} and its siblings) are taken one by one in the order of their segments,
 * each compared whole, so that an ancestor comes just before its descendants and no two callers can each hold a path
 * the other waits for (the keys' plain text order could: {@code p/q-z} sorts before {@code p/q/s}). Two spellings of
 * one path count once; paths that contain each other are refused, since the second would wait for the first.
 *
 * <p>A handle's {@link LockHandle#key()} is its path without a leading or trailing {@code /} ({@code ""} for the whole
 * tree), the key under which {@link io.distlock.LockContext#current(String)} finds it. Not available on a {@link
 * Redlock}.
 */
public final class PathLock implements Lock, KeyOrder {

    private final LockKit kit;
    private final PathLocks paths;
    private final String tree;

    PathLock(LockKit kit, PathLocks paths, String tree) {
        TreePath.validateTree(tree);
        this.kit = kit;
        this.paths = paths;
        this.tree = tree;
    }

    /**
     * Joins segments into a path.
     *
     * @param segments the segments, root first; none for the whole tree
     * @return the path, the segments joined with {@code /}
     * @throws IllegalArgumentException if a segment is null, blank, {@code .} or {@code ..}, or contains {@code /}
     */
    public static String path(String... segments) {
        return path(Arrays.asList(segments));
    }

    /**
     * Joins segments into a path.
     *
     * @param segments the segments, root first; empty for the whole tree
     * @return the path, the segments joined with {@code /}
     * @throws IllegalArgumentException if a segment is null, blank, {@code .} or {@code ..}, or contains {@code /}
     */
    public static String path(List<String> segments) {
        return PathRules.join(PathRules.validate(segments));
    }

    /**
     * The tree's name.
     *
     * @return the name given to {@link RedisLock#tree(String)}
     */
    public String tree() {
        return tree;
    }

    /**
     * Takes the path once if neither it, nor an ancestor, nor a descendant is held.
     *
     * @throws IllegalArgumentException if the path is invalid (see the class comment) or the lease is null
     */
    @Override
    public Optional<LockHandle> tryAcquire(String path, Lease lease) {
        TreePath treePath = validate(path, lease);
        LeaseAsked asked = paths.holds().resolve(lease);
        try {
            return Optional.ofNullable(kit.observer().acquisition(tree, LockKind.PATH, () -> take(treePath, asked, 0)));
        } catch (InterruptedException e) {
            // A single attempt waits uninterruptibly, so this cannot happen; keep the interrupt for the caller anyway.
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    /**
     * Takes the path, waiting up to {@code wait} while it, an ancestor or a descendant is held.
     *
     * @throws IllegalArgumentException if the path is invalid (see the class comment), the lease null or the wait
     *     negative
     */
    @Override
    public Optional<LockHandle> tryAcquire(String path, Lease lease, Duration wait) throws InterruptedException {
        TreePath treePath = validate(path, lease);
        long waitNanos = Waits.nanos(wait);
        // A zero wait is one attempt: take tries once then, without validating and resolving the lease again.
        LeaseAsked asked = paths.holds().resolve(lease);
        return Optional.ofNullable(
                kit.observer().acquisition(tree, LockKind.PATH, () -> take(treePath, asked, waitNanos)));
    }

    /**
     * Takes the path, waiting as long as it, an ancestor or a descendant is held.
     *
     * @throws IllegalArgumentException if the path is invalid (see the class comment) or the lease is null
     */
    @Override
    public LockHandle acquire(String path, Lease lease) throws InterruptedException {
        TreePath treePath = validate(path, lease);
        LeaseAsked asked = paths.holds().resolve(lease);
        LockHandle handle = kit.observer().acquisition(tree, LockKind.PATH, () -> take(treePath, asked, Waits.FOREVER));
        if (handle == null) {
            throw new IllegalStateException(
                    "an unbounded wait for path '" + PrintableText.of(path) + "' ended without the lock");
        }
        return handle;
    }

    /**
     * {@inheritDoc}
     *
     * <p>A path that a blocking acquisition would join, the path or one below it held by a scope or view of the calling
     * thread, fails at once with {@link IllegalStateException} too.
     */
    @Override
    public CompletionStage<Optional<LockHandle>> tryAcquireAsync(String path, Lease lease, Duration wait) {
        TreePath treePath;
        try {
            treePath = validate(path, lease);
        } catch (IllegalArgumentException | IllegalStateException e) {
            return CompletableFuture.failedFuture(e);
        }
        String key = displayKey(treePath, treePath.depth());
        Holds holds = paths.holds();
        for (int depth = treePath.depth(); depth >= 0; depth--) {
            if (scopeHold(treePath, holds, depth) != null) {
                return ScopedPaths.heldByCallersScope(key, displayKey(treePath, depth));
            }
        }
        return Lock.super.tryAcquireAsync(key, lease, wait);
    }

    @Override
    public java.util.concurrent.locks.Lock asJavaLock(String path, Lease lease) {
        validate(path, lease);
        return new JavaLockView(this, path, lease, kit.threadOwned());
    }

    /**
     * The paths in the order every caller takes several of them: segment by segment, each segment compared whole, so
     * that a path comes just before its descendants.
     *
     * @throws IllegalArgumentException if there is no path, a path is invalid, or one path contains another
     */
    @Override
    public List<String> order(Collection<String> paths) {
        return PathRules.order(paths);
    }

    /**
     * Takes the path: re-enters a hold of this thread's scope on it or an ancestor, or tries until {@code waitNanos}
     * have passed (0: once; {@link Waits#FOREVER}: no limit).
     *
     * @return the handle, or null if a conflicting hold kept the path for the whole wait
     */
    private @Nullable LockHandle take(TreePath path, LeaseAsked lease, long waitNanos) throws InterruptedException {
        String key = displayKey(path, path.depth());
        if (waitNanos != 0 && Thread.interrupted()) {
            throw new InterruptedException("interrupted before acquiring path '" + PrintableText.of(key) + "'");
        }
        long deadline = waitNanos == 0 ? Waits.FOREVER : Waits.deadline(waitNanos);
        Holds holds = paths.holds();
        for (int depth = path.depth(); depth >= 0; depth--) {
            Hold scope = scopeHold(path, holds, depth);
            LockHandle nested = scope == null ? null : holds.join(scope, lease, deadline);
            if (nested != null) {
                return nested;
            }
        }
        long leaseMillis = lease.storeMillis();
        PathCommands commands = paths.commands();
        return new SignalledWait(kit, commands, paths.releases())
                .take(
                        key,
                        path.releaseKey(),
                        waitNanos,
                        deadline,
                        (token, willWait) -> commands.acquire(key, path, token, leaseMillis, willWait),
                        (granted, attempt) -> holds.held(
                                key,
                                path.holderKey(),
                                attempt.token(),
                                granted.fencingToken(),
                                lease,
                                attempt.call().sentNanos()));
    }

    /** The hold of a scope or view of this thread on the path's ancestor with {@code depth} segments, or null. */
    private @Nullable Hold scopeHold(TreePath path, Holds holds, int depth) {
        String holderKey = path.holderKey(depth);
        return kit.heldInScope(
                displayKey(path, depth), holds, hold -> hold.lockKey().equals(holderKey));
    }

    private TreePath validate(String path, Lease lease) {
        if (kit.isClosed()) {
            throw kit.closed(path);
        }
        TreePath treePath = TreePath.parse(kit.keyPrefix(), tree, path);
        if (lease == null) {
            throw new IllegalArgumentException("lease must not be null; use Lease.fixed(...) or Lease.renewed()");
        }
        return treePath;
    }

    /** What a handle of the ancestor with {@code depth} segments is called: its path, normalized. */
    private static String displayKey(TreePath path, int depth) {
        return String.join("/", path.segments().subList(0, depth));
    }

    @Override
    public String toString() {
        return "PathLock[tree=" + tree + ", " + kit + "]";
    }
}
