package io.distlock.redis;

import io.distlock.Kind;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.internal.engine.InspectedLock;
import io.distlock.internal.engine.JavaLockView;
import io.distlock.internal.engine.OfferedKinds;
import io.distlock.internal.text.PrintableText;
import io.distlock.monitor.InspectableLock;
import io.distlock.monitor.LockKind;
import io.distlock.redis.internal.engine.Acquirer;
import io.distlock.redis.internal.engine.AsyncAcquirer;
import io.distlock.redis.internal.engine.KeysTogether;
import io.distlock.redis.internal.engine.LeaseAsked;
import io.distlock.redis.internal.engine.LeaseRenewer;
import io.distlock.redis.internal.engine.LockKit;
import io.distlock.redis.internal.engine.WarmUpKeys;
import io.distlock.redis.internal.waiting.Waits;
import io.distlock.spi.KeysAtOnce;
import io.distlock.spi.PreparesAhead;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * The Redis implementation of {@link Lock}, on a {@link RedisTemplate} (usually the application's {@link
 * StringRedisTemplate}) whose connection factory is Lettuce's.
 *
 * <p>Every operation is one Lua script, built once as a {@link org.springframework.data.redis.core.script.RedisScript}
 * and run by Spring Data Redis's script execution on the template's connection factory. An uncontended acquisition is
 * one round trip (one script that sets the key with its lease, {@code SET NX PX}, and increments the key's fencing
 * counter); a release is one round trip. A release hands the key straight to the longest waiting thread of this
 * instance if there is one; otherwise it wakes waiters of other instances through the application's one {@link
 * ReleaseSubscription}, publishing only when
 * another instance waits. Redis counts every lease ({@code PX}); no wall clock of any machine is compared with another.
 *
 * <p>Keys in Redis are {@code {prefix + key}} for the lock and {@code {prefix + key}:fence} for its fencing counter,
 * kept unless {@link RedisLockBuilder#deleteCountersUnusedFor} lets it expire, since fencing tokens must keep growing.
 *
 * <p>A waiting acquisition (of any kind: exclusive, fair, read, path, blocking or not) counts an attempt that Redis did
 * not answer in time, or that failed for a reason that passes (the connection is refused, lost or being made again, the
 * command timed out, or a server in the middle of a failover answered {@code READONLY}, {@code LOADING}, {@code
 * MASTERDOWN}, {@code NOREPLICAS}, {@code BUSY}, {@code TRYAGAIN} or {@code CLUSTERDOWN}) as not answered yet, and
 * tries again after a pause until its wait ends: it rides out a Sentinel or Cluster failover that ends before its wait
 * does, and fails with {@link io.distlock.LockBackendException} only if Redis never answered within the wait, as {@link
 * Lock} says. Other errors end a wait at once, and so does the first unanswered attempt of a wait without a deadline.
 * An attempt given up is released with its owner token, and the next one goes under a new token.
 *
 * <p>Needs Redis 6.2 or newer. Create it with {@link #builder(RedisTemplate)}. {@link #close()} shuts it down
 * gracefully: new acquisitions and waiting ones fail, locks still held keep being renewed until they are released or
 * the shutdown grace period ends, and are then reported lost. As a Spring bean it closes in the lifecycle phase {@link
 * #LIFECYCLE_PHASE}: after the web server stopped taking requests, before the connection factory (phase 0) stops.
 */
public final class RedisLock extends InspectedLock
        implements Lock, ClosingLifecycle, KeysAtOnce, InspectableLock, PreparesAhead {

    private static final Logger log = LoggerFactory.getLogger(RedisLock.class);

    /** The lease of the keys taken while preparing, each released at once; long enough for a slow first answer. */
    private static final Lease PREPARATION_LEASE = Lease.fixed(Duration.ofSeconds(30));

    /**
     * The {@link org.springframework.context.SmartLifecycle} phase in which distlock's beans stop: after everything in
     * the default phase and the web server, before Spring Data Redis's connection factory.
     */
    public static final int LIFECYCLE_PHASE = ClosingLifecycle.PHASE;

    private final RedisTemplate<String, ?> template;
    private final String name;
    private final LockKit kit;
    private final LeaseRenewer renewer;
    private final Acquirer acquirer;
    private final AsyncAcquirer asyncAcquirer;
    private final @Nullable KeysTogether together;
    private final OfferedKinds kinds;
    private final LockShutdown shutdown;

    /**
     * The lock of its builder's {@link RedisLockBuilder#wire wiring}.
     *
     * @param name how the lock names itself in messages
     * @param renewer renews the auto-renewed leases of every kind but paths
     * @param together takes several keys in one script, or null where that cannot be (a Redlock, replica
     *     acknowledgements)
     * @param kinds the kinds beside the exclusive lock that the builder registered: none on a Redlock
     */
    RedisLock(
            RedisTemplate<String, ?> template,
            String name,
            LockKit kit,
            LeaseRenewer renewer,
            Acquirer acquirer,
            AsyncAcquirer asyncAcquirer,
            @Nullable KeysTogether together,
            OfferedKinds kinds,
            LockInspection inspection,
            LockShutdown shutdown) {
        super(inspection);
        this.template = template;
        this.name = name;
        this.kit = kit;
        this.renewer = renewer;
        this.acquirer = acquirer;
        this.asyncAcquirer = asyncAcquirer;
        this.together = together;
        this.kinds = kinds;
        this.shutdown = shutdown;
    }

    /**
     * Starts building a lock whose scripts run on the template's connection factory.
     *
     * @param template a {@link StringRedisTemplate} in the usual case; its connection factory must be a {@link
     *     org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory}, and its keys plain UTF-8 text
     * @return the builder
     * @throws IllegalArgumentException if the template is null or does not meet these conditions, naming which
     */
    public static RedisLockBuilder builder(RedisTemplate<String, ?> template) {
        return new RedisLockBuilder(template);
    }

    /**
     * Starts building a lock on a {@link StringRedisTemplate} made for it on the connection factory.
     *
     * @param connectionFactory a {@link org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory}
     * @return the builder
     * @throws IllegalArgumentException if the factory is null or not Lettuce's
     */
    public static RedisLockBuilder builder(RedisConnectionFactory connectionFactory) {
        if (connectionFactory == null) {
            throw new IllegalArgumentException(
                    "connection factory must not be null; distlock needs a " + "LettuceConnectionFactory");
        }
        StringRedisTemplate template = new StringRedisTemplate(connectionFactory);
        return new RedisLockBuilder(template);
    }

    @Override
    public Optional<LockHandle> tryAcquire(String key, Lease lease) {
        return tryOnce(key, kit.validate(key, lease));
    }

    private Optional<LockHandle> tryOnce(String key, LeaseAsked lease) {
        return Optional.ofNullable(kit.observer()
                .acquisition(
                        key,
                        LockKind.EXCLUSIVE,
                        () -> acquirer.tryOnce(key, kit.lockKey(key), lease).orElse(null)));
    }

    @Override
    public Optional<LockHandle> tryAcquire(String key, Lease lease, Duration wait) throws InterruptedException {
        LeaseAsked asked = kit.validate(key, lease);
        long waitNanos = Waits.nanos(wait);
        if (waitNanos == 0) {
            return tryOnce(key, asked);
        }
        return Optional.ofNullable(kit.observer()
                .acquisition(key, LockKind.EXCLUSIVE, () -> acquirer.acquire(key, kit.lockKey(key), asked, waitNanos)));
    }

    @Override
    public LockHandle acquire(String key, Lease lease) throws InterruptedException {
        LeaseAsked asked = kit.validate(key, lease);
        LockHandle handle = kit.observer()
                .acquisition(
                        key, LockKind.EXCLUSIVE, () -> acquirer.acquire(key, kit.lockKey(key), asked, Waits.FOREVER));
        if (handle == null) {
            throw new IllegalStateException(
                    "an unbounded wait for lock '" + PrintableText.of(key) + "' ended without the lock");
        }
        return handle;
    }

    /**
     * {@inheritDoc}
     *
     * <p>No thread waits: the acquisition waits in the same first-come-first-served queue as the blocking ones, woken
     * by releases, handovers and timers. Its stage completes on a daemon thread of this lock's, never on a thread of
     * the Redis client, so dependent stages may block without stalling Redis connections. A key held by a scope of the
     * calling thread fails the stage as the interface says.
     */
    @Override
    public CompletionStage<Optional<LockHandle>> tryAcquireAsync(String key, Lease lease, Duration wait) {
        LeaseAsked asked;
        long waitNanos;
        try {
            asked = kit.validate(key, lease);
            waitNanos = Waits.nanos(wait);
        } catch (RuntimeException refused) {
            return CompletableFuture.failedFuture(refused);
        }
        if (LockContext.current(key).isPresent()) {
            return Lock.super.tryAcquireAsync(key, lease, wait);
        }
        return asyncAcquirer.acquire(key, kit.lockKey(key), asked, waitNanos);
    }

    /**
     * Takes every key in one script when they are on one server: on a standalone or Sentinel-managed Redis any keys, on
     * a cluster keys whose Redis keys share a slot (keys with the same text up to their first <code>}</code>, such as
     * {@code order:{7}:payment} and {@code order:{7}:shipping}). Not with replica acknowledgements, and not for keys a
     * scope of this thread holds.
     */
    @Override
    public KeysAtOnce.@Nullable Taken tryAcquireAtOnce(List<String> keys, Lease lease) {
        LeaseAsked asked = null;
        for (String key : keys) {
            asked = kit.validate(key, lease);
        }
        KeysAtOnce.Taken taken = together == null || asked == null ? null : together.tryAll(keys, asked);
        if (taken != null && taken.handles() != null) {
            for (int i = 0; i < keys.size(); i++) {
                kit.observer().held(taken.handles().get(i), keys.get(i), LockKind.EXCLUSIVE);
            }
        }
        return taken;
    }

    /**
     * {@inheritDoc}
     *
     * <p>Takes and releases {@value WarmUpKeys#BASE} (on a cluster, one such key on each master, so that a connection
     * to every master is made), which opens the shared connections, discovers a cluster's topology and makes every
     * master know the acquisition and release scripts; then waits until the release subscription is heard. The
     * acquisitions are not told to the lock's observer. Each step waits at most the connection factory's command
     * timeout (plus its connect timeout for the first), and the subscription at most what is left of {@code timeout}.
     * A key found held, by another instance preparing at the same moment, is simply not taken.
     */
    @Override
    public boolean prepare(Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + Waits.nanos(timeout);
        if (kit.isClosed()) {
            throw kit.closed(WarmUpKeys.BASE);
        }
        try {
            List<String> keys = WarmUpKeys.reachingEveryMaster(template.getRequiredConnectionFactory(), kit::lockKey);
            for (String key : keys) {
                acquirer.tryOnce(key, kit.lockKey(key), kit.validate(key, PREPARATION_LEASE))
                        .ifPresent(LockHandle::release);
            }
        } catch (RuntimeException e) {
            log.warn("{} could not prepare for its first acquisition; it will connect then: {}", this, e.toString());
            return false;
        }
        if (!kit.awaitSubscribed(deadline - System.nanoTime())) {
            log.warn(
                    "{} connected, but its release subscription was not heard within {}; waiters rely on leases until"
                            + " it is",
                    this,
                    timeout);
            return false;
        }
        return true;
    }

    @Override
    public java.util.concurrent.locks.Lock asJavaLock(String key, Lease lease) {
        kit.validate(key, lease);
        return new JavaLockView(this, key, lease, kit.threadOwned());
    }

    /**
     * The template this lock was built with; its connection factory carries every script.
     *
     * @return the template
     */
    public RedisTemplate<String, ?> template() {
        return template;
    }

    /**
     * The prefix put before every key in Redis.
     *
     * @return the key prefix
     */
    public String keyPrefix() {
        return kit.keyPrefix();
    }

    /**
     * The lease of auto-renewed acquisitions.
     *
     * @return the watchdog lease
     */
    public Duration watchdogLease() {
        return Duration.ofMillis(renewer.leaseMillis());
    }

    /**
     * How often auto-renewed leases are renewed.
     *
     * @return the renew interval
     */
    public Duration renewInterval() {
        return renewer.interval();
    }

    /**
     * How long {@link #close()} keeps renewing and waits for held locks to be released before it reports them lost.
     *
     * @return the shutdown grace period
     */
    public Duration shutdownGracePeriod() {
        return shutdown.gracePeriod();
    }

    /**
     * Shuts the lock down gracefully; it blocks for at most the {@linkplain RedisLockBuilder#shutdownGracePeriod
     * shutdown grace period} (plus a few seconds for a subscription in progress).
     *
     * <ol>
     *   <li>New acquisitions throw {@link IllegalStateException}, and so do waiting ones, which are woken at once.
     *   <li>Locks still held keep their leases renewed until they are released, or until the grace period ends. Then
     *       they are marked lost ({@link LockLostException.Reason#CLIENT_CLOSED}): {@code isLost()} answers true,
     *       {@code onLost} callbacks run, and renewals stop, so their keys expire with their leases.
     *   <li>Unless the subscription was shared through the builder, the release subscription is closed.
     * </ol>
     *
     * <p>Handles stay usable: they can be released, which frees their keys in Redis while the connection factory is
     * still open.
     */
    @Override
    public void close() {
        if (kit.isClosed()) {
            return;
        }
        kit.markClosed();
        shutdown.run();
    }

    @Override
    public boolean isRunning() {
        return !kit.isClosed();
    }

    /**
     * The fair view of this lock: the same keys, leases, renewals, fencing tokens and re-entry, with waiters of every
     * instance served first come first served through a queue in Redis.
     *
     * @return the fair lock
     */
    @Override
    public FairLock fair() {
        return (FairLock) Kind.FAIR.of(this);
    }

    /**
     * The read side of this lock's keys: readers share a key, and exclude and are excluded by this lock's exclusive
     * acquisitions, which are the writers; a waiting writer keeps new readers out.
     *
     * @return the read lock
     */
    @Override
    public ReadLock reading() {
        return (ReadLock) Kind.READ.of(this);
    }

    /**
     * Locks on the paths of a named tree, such as a project's folders: a path conflicts with itself, its ancestors and
     * its descendants, never with siblings; see {@link PathLock}. The lock's key prefix, leases, renewal and shutdown
     * apply to it.
     *
     * @param tree the tree's name, such as {@code project:42}; not blank, without <code>{</code> or <code>}</code>
     * @return the path lock of that tree
     * @throws IllegalArgumentException if the tree's name is invalid
     */
    @Override
    public PathLock tree(String tree) {
        return (PathLock) Kind.PATH.of(this).tree(tree);
    }

    /**
     * {@inheritDoc}
     *
     * <p>A lock of one Redis server, Sentinel or Cluster offers {@link Kind#FAIR}, {@link Kind#READ}, {@link Kind#PATH}
     * and {@link Kind#SEMAPHORE} ({@link SemaphoreLock}); the one a {@link Redlock} votes with offers none.
     */
    @Override
    public <V> Optional<V> kind(Kind<V> kind) {
        return kinds.find(kind);
    }

    @Override
    public String toString() {
        return kit.toString();
    }
}
