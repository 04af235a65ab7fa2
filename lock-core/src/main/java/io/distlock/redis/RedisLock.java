package io.distlock.redis;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockBackendException;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.LockLostException.Reason;
import io.distlock.LockNotAcquiredException;
import io.distlock.LockedCallable;
import io.distlock.LockedExecution;
import io.distlock.LockedRunnable;
import io.distlock.OnLockLost;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The Redis implementation of {@link Lock}, on the application's Lettuce {@link RedisConnectionFactory}.
 *
 * <p>An uncontended acquisition is one round trip (one Lua script that sets the key with its lease, {@code SET NX PX},
 * and increments the key's fencing counter); a release is one round trip. A release hands the key straight to the
 * longest waiting thread of this instance if there is one; otherwise it wakes waiters of other instances through the
 * application's one {@link ReleaseSubscription}, publishing only when another instance waits. After {@value
 * WaitingRoom#MAX_HANDOVERS_WHILE_OTHERS_WAIT} handovers in a row while other instances wait, the release reserves the
 * key for them for a moment, so that this instance's waiters cannot take it straight back. Redis counts every lease
 * ({@code PX}); no wall clock of any machine is compared with another.
 *
 * <p>Keys in Redis are {@code {prefix + key}} for the lock and {@code {prefix + key}:fence} for its fencing counter.
 * The counter is never deleted, since fencing tokens must keep increasing: it costs one small key per lock name.
 *
 * <p>Needs Redis 6.2 or newer. Create it with {@link #builder(RedisConnectionFactory)}. {@link #close()} shuts it down
 * gracefully: new acquisitions and waiting ones fail, locks still held keep being renewed until they are released or
 * the shutdown grace period ends, and are then reported lost. As a Spring bean it closes in the lifecycle phase {@link
 * #LIFECYCLE_PHASE}: after the web server stopped taking requests, before the connection factory (phase 0) stops.
 */
public final class RedisLock implements Lock, ClosedOnStop {

    /**
     * The {@link org.springframework.context.SmartLifecycle} phase in which distlock's beans stop: after everything in
     * the default phase and the web server, before Spring Data Redis's connection factory.
     */
    public static final int LIFECYCLE_PHASE = Integer.MAX_VALUE / 2;

    private static final Logger log = LoggerFactory.getLogger(RedisLock.class);

    /** A waiter that could not see the holder's lease (a key without expiry) looks again this often. */
    private static final long NO_EXPIRY_RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);
    /** A waiter whose wait is nearly over still gives Redis this long to answer its attempt. */
    private static final long MIN_ANSWER_WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(200);
    /**
     * How long a release that ends a run of handovers reserves the key for other instances' waiters: long enough for
     * the announcement to reach them and one of them to answer, short enough to cost little when none does.
     */
    static final long OTHERS_TURN_MILLIS = 20;

    /** Random bytes of this instance's id, which prefixes its release announcements; 12 characters of text. */
    private static final int INSTANCE_ID_BYTES = 9;

    /** Sent instead of the instance id by an attempt that will not wait, so a failure marks nothing. */
    private static final byte[] NOT_WAITING = new byte[0];

    private static final byte[] NO_RESERVATION = RedisKeys.bytes("0");
    private static final byte[] OTHERS_TURN = RedisKeys.bytes(Long.toString(OTHERS_TURN_MILLIS));

    private final SecureRandom random = new SecureRandom();
    private final RedisKeys keys;
    private final ScriptRunner runner;
    private final EvictionPolicyCheck evictionPolicy;
    private final WaitingRoom waitingRoom = new WaitingRoom();
    private final LeaseRenewer renewer;
    private final ReleaseSubscription subscription;
    private final boolean ownsSubscription;
    private final ChannelRegistration channel;
    private final String instanceId;
    private final byte[] instanceIdBytes;
    private final byte[] releaseChannelBytes;
    private final LiveHolds live = new LiveHolds();
    private final ThreadOwnedHandles threadOwned = new ThreadOwnedHandles();
    private final long shutdownGraceNanos;
    private volatile boolean closed;

    private RedisLock(Builder builder) {
        this.keys = new RedisKeys(builder.keyPrefix);
        this.runner = new ScriptRunner(builder.connectionFactory);
        this.evictionPolicy = new EvictionPolicyCheck(builder.connectionFactory);
        this.renewer = new LeaseRenewer(
                runner, builder.connectionFactory.isClusterAware(), builder.watchdogLease, builder.renewInterval());
        this.ownsSubscription = builder.releaseSubscription == null;
        this.subscription = builder.releaseSubscription != null
                ? builder.releaseSubscription
                : new ReleaseSubscription(builder.connectionFactory);
        this.shutdownGraceNanos = builder.shutdownGracePeriod.toNanos();
        String releaseChannel = keys.releaseChannel();
        this.releaseChannelBytes = RedisKeys.bytes(releaseChannel);
        this.instanceId = randomText(INSTANCE_ID_BYTES);
        this.instanceIdBytes = RedisKeys.bytes(instanceId);
        this.channel = new ChannelRegistration(subscription, releaseChannel, new ReleaseSubscription.Listener() {
            @Override
            public void released(String message) {
                // Releases of this instance told its waiters at once; only other instances' releases are news.
                if (!message.startsWith(instanceId)) {
                    waitingRoom.released(message.substring(instanceId.length()));
                }
            }

            @Override
            public void subscribed() {
                waitingRoom.releasedAll();
            }
        });
        warnIfCommandTimeoutOutlastsLease(builder);
    }

    /**
     * Starts building a lock on the application's connection factory.
     *
     * @param connectionFactory a {@link LettuceConnectionFactory}
     * @return the builder
     * @throws IllegalArgumentException if the factory is null or not Lettuce's
     */
    public static Builder builder(RedisConnectionFactory connectionFactory) {
        if (!(connectionFactory instanceof LettuceConnectionFactory lettuce)) {
            throw new IllegalArgumentException(
                    "distlock needs a LettuceConnectionFactory (Spring Boot's default Redis client), but got "
                            + (connectionFactory == null
                                    ? "null"
                                    : connectionFactory.getClass().getName()));
        }
        return new Builder(lettuce);
    }

    @Override
    public Optional<LockHandle> tryAcquire(String key) {
        return tryAcquire(key, Lease.renewed());
    }

    @Override
    public Optional<LockHandle> tryAcquire(String key, Lease lease) {
        validate(key, lease);
        LockHandle nested = reenter(key, lease, WaitingRoom.FOREVER);
        if (nested != null) {
            return Optional.of(nested);
        }
        String lockKey = keys.lockKey(key);
        String token = newToken();
        ScriptRunner.Sent<Long> sent = sendAcquire(key, lockKey, token, lease, NOT_WAITING);
        long answer;
        long timeout = runner.answerTimeoutNanos();
        try {
            answer = ScriptRunner.awaitUninterruptibly(sent.answer(), timeout, key, "acquire");
        } catch (TimeoutException e) {
            abandon(sent, key, lockKey, token);
            throw ScriptRunner.timeout(key, "acquire", timeout);
        } catch (RuntimeException e) {
            abandon(sent, key, lockKey, token);
            throw e;
        }
        sent.finish();
        evictionPolicy.runOnce(runner::inBackground);
        return answer > 0 ? Optional.of(held(key, lockKey, token, answer, lease, sent.sentNanos())) : Optional.empty();
    }

    @Override
    public Optional<LockHandle> tryAcquire(String key, Duration wait) throws InterruptedException {
        return tryAcquire(key, Lease.renewed(), wait);
    }

    @Override
    public Optional<LockHandle> tryAcquire(String key, Lease lease, Duration wait) throws InterruptedException {
        validate(key, lease);
        if (wait == null || wait.isNegative()) {
            throw new IllegalArgumentException("wait must be zero (try once) or positive, but was " + wait
                    + "; use acquire(...) to wait without limit");
        }
        if (wait.isZero()) {
            return tryAcquire(key, lease);
        }
        return Optional.ofNullable(acquire(key, lease, saturatedNanos(wait)));
    }

    @Override
    public LockHandle acquire(String key) throws InterruptedException {
        return acquire(key, Lease.renewed());
    }

    @Override
    public LockHandle acquire(String key, Lease lease) throws InterruptedException {
        validate(key, lease);
        LockHandle handle = acquire(key, lease, WaitingRoom.FOREVER);
        if (handle == null) {
            throw new IllegalStateException("an unbounded wait for lock '" + key + "' ended without the lock");
        }
        return handle;
    }

    @Override
    public <T, X extends Throwable> T callWithLock(String key, Lease lease, Duration wait, LockedCallable<T, X> work)
            throws X, InterruptedException {
        if (work == null) {
            throw new IllegalArgumentException("work must not be null");
        }
        LockHandle handle = tryAcquire(key, lease, wait).orElseThrow(() -> new LockNotAcquiredException(key, wait));
        return LockedExecution.call(handle, OnLockLost.THROW, work);
    }

    @Override
    public <X extends Throwable> void runWithLock(String key, Lease lease, Duration wait, LockedRunnable<X> work)
            throws X, InterruptedException {
        if (work == null) {
            throw new IllegalArgumentException("work must not be null");
        }
        callWithLock(key, lease, wait, () -> {
            work.run();
            return null;
        });
    }

    @Override
    public java.util.concurrent.locks.Lock asJavaLock(String key, Lease lease) {
        validate(key, lease);
        return new JavaLockView(this, key, lease);
    }

    /**
     * The prefix put before every key in Redis.
     *
     * @return the key prefix
     */
    public String keyPrefix() {
        return keys.prefix();
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
        return Duration.ofNanos(shutdownGraceNanos);
    }

    /**
     * Shuts the lock down gracefully; it blocks for at most the {@linkplain Builder#shutdownGracePeriod shutdown grace
     * period} (plus a few seconds for a subscription in progress).
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
        if (closed) {
            return;
        }
        closed = true;
        waitingRoom.close();
        channel.close();
        int abandoned = live.awaitReleasedThenMarkLost(shutdownGraceNanos, Reason.CLIENT_CLOSED);
        if (abandoned > 0) {
            log.warn(
                    "{} distlock lock(s) were still held when the shutdown grace period of {} ended; they are reported"
                            + " lost and expire with their leases",
                    abandoned,
                    shutdownGracePeriod());
        }
        renewer.close();
        if (ownsSubscription) {
            subscription.close();
        }
    }

    @Override
    public boolean isRunning() {
        return !closed;
    }

    /** Takes the current thread's ownership of a lock acquired through a {@link JavaLockView}. */
    void ownedByThread(LockHandle handle) {
        threadOwned.add((RedisLockHandle) handle);
    }

    /** Ends the current thread's ownership of a lock acquired through a {@link JavaLockView}. */
    void noLongerOwnedByThread(LockHandle handle) {
        threadOwned.remove((RedisLockHandle) handle);
    }

    /** Waits until {@code waitNanos} have passed ({@link WaitingRoom#FOREVER}: no limit); null if the lock stayed taken. */
    private @Nullable LockHandle acquire(String key, Lease lease, long waitNanos) throws InterruptedException {
        if (Thread.interrupted()) {
            throw new InterruptedException("interrupted before acquiring lock '" + key + "'");
        }
        long deadline = waitNanos == WaitingRoom.FOREVER ? WaitingRoom.FOREVER : System.nanoTime() + waitNanos;
        LockHandle nested = reenter(key, lease, deadline);
        if (nested != null) {
            return nested;
        }
        String lockKey = keys.lockKey(key);
        if (runner.isConnected()) {
            startBackgroundWork();
        }
        WaitingRoom.Waiter waiter = waitingRoom.enter(lockKey, newToken(), leaseMillis(lease));
        boolean handoverTaken = false;
        try {
            boolean attempt = waiter.tryFirst();
            boolean redisAnswered = false;
            while (true) {
                if (attempt) {
                    String token = waiter.token();
                    ScriptRunner.Sent<Long> sent = sendAcquire(key, lockKey, token, lease, instanceIdBytes);
                    Long answer = awaitAttempt(sent, key, lockKey, token, deadline, redisAnswered);
                    if (answer == null) {
                        return null;
                    }
                    redisAnswered = true;
                    startBackgroundWork();
                    if (answer > 0) {
                        return held(key, lockKey, token, answer, lease, sent.sentNanos());
                    }
                    long holderTtlMillis = -1 - answer;
                    long now = System.nanoTime();
                    waiter.holderExpiresBy(
                            holderTtlMillis < 0
                                    ? now + NO_EXPIRY_RECHECK_NANOS
                                    : now + TimeUnit.MILLISECONDS.toNanos(holderTtlMillis + 1));
                }
                if (deadline != WaitingRoom.FOREVER && System.nanoTime() - deadline >= 0) {
                    return null;
                }
                WaitingRoom.Turn turn = waiter.await(deadline);
                if (turn == WaitingRoom.Turn.HANDED_OVER) {
                    handoverTaken = true;
                    return held(key, lockKey, waiter.token(), waiter.fencingToken(), lease, waiter.handedOverNanos());
                }
                if (turn == WaitingRoom.Turn.TIMED_OUT) {
                    return null;
                }
                if (turn == WaitingRoom.Turn.CLOSED) {
                    throw closed(key);
                }
                attempt = true;
            }
        } finally {
            if (waiter.leave() && !handoverTaken) {
                // Handed over just as this wait ended or was interrupted: give it back.
                releaseInBackground(key, lockKey, waiter.token());
            }
        }
    }

    /**
     * Waits for an acquisition attempt until the caller's wait ends (or a little longer, so a short remainder does not
     * fail a healthy Redis). An attempt given up for any reason is {@linkplain #abandon abandoned}.
     *
     * @return the script's answer, or null if the wait ended first although Redis had answered this caller before:
     *     then the lock was simply not acquired in time
     * @throws LockBackendException if Redis failed, or the wait ended and Redis had not answered this caller at all
     */
    private @Nullable Long awaitAttempt(
            ScriptRunner.Sent<Long> sent,
            String key,
            String lockKey,
            String token,
            long deadline,
            boolean redisAnsweredBefore)
            throws InterruptedException {
        long timeout = answerWait(deadline);
        long answer;
        try {
            answer = ScriptRunner.await(sent.answer(), timeout, key, "acquire");
        } catch (TimeoutException e) {
            abandon(sent, key, lockKey, token);
            if (redisAnsweredBefore && deadline != WaitingRoom.FOREVER && System.nanoTime() - deadline >= 0) {
                return null;
            }
            throw ScriptRunner.timeout(key, "acquire", timeout);
        } catch (InterruptedException | RuntimeException e) {
            abandon(sent, key, lockKey, token);
            throw e;
        }
        sent.finish();
        return answer;
    }

    /**
     * Subscribes to release announcements and checks the eviction policy, in the background. Only once Redis has
     * answered this lock, so that their connections are never made while the first one is still being made.
     */
    private void startBackgroundWork() {
        channel.ensureRegistered();
        evictionPolicy.runOnce(runner::inBackground);
    }

    /**
     * How long to wait for Redis's answer: until the caller's deadline (at least a little, so a short remainder does
     * not fail a healthy Redis), never longer than the client would.
     */
    private long answerWait(long deadline) {
        long timeout = runner.answerTimeoutNanos();
        if (deadline != WaitingRoom.FOREVER) {
            timeout = Math.min(timeout, Math.max(deadline - System.nanoTime(), MIN_ANSWER_WAIT_NANOS));
        }
        return timeout;
    }

    /**
     * Gives up an attempt whose answer the caller will not use: a release with its token follows on the same
     * connection, so Redis runs it after the attempt and frees the lock if the attempt was granted after all.
     */
    private void abandon(ScriptRunner.Sent<Long> sent, String key, String lockKey, String token) {
        sent.abandon(LockScripts.RELEASE, new byte[][] {RedisKeys.bytes(lockKey)}, releaseArgs(token, NO_RESERVATION))
                .whenComplete((released, error) -> waitingRoom.released(lockKey));
        log.debug("Gave up an attempt on lock '{}'; a release follows it", key);
    }

    /** Releases a lock nobody holds a handle on, then lets this instance's waiters try; failures only cost a lease. */
    private void releaseInBackground(String key, String lockKey, String token) {
        sendRelease(key, lockKey, token, NO_RESERVATION).answer().whenComplete((result, error) -> {
            if (error != null) {
                log.warn("Lock '{}' could not be released; it expires with its lease: {}", key, error.toString());
            }
            waitingRoom.released(lockKey);
        });
    }

    private ScriptRunner.Sent<Long> sendAcquire(
            String key, String lockKey, String token, Lease lease, byte[] waiterInstance) {
        return runner.sendAttempt(
                key,
                "acquire",
                LockScripts.ACQUIRE,
                new byte[][] {RedisKeys.bytes(lockKey), RedisKeys.fenceKey(lockKey)},
                RedisKeys.bytes(token),
                RedisKeys.bytes(Long.toString(leaseMillis(lease))),
                waiterInstance,
                instanceIdBytes);
    }

    private ScriptRunner.Sent<Long> sendRelease(String key, String lockKey, String token, byte[] reservation) {
        return runner.send(
                key,
                "release",
                LockScripts.RELEASE,
                new byte[][] {RedisKeys.bytes(lockKey)},
                releaseArgs(token, reservation));
    }

    private byte[][] releaseArgs(String token, byte[] reservation) {
        return new byte[][] {RedisKeys.bytes(token), releaseChannelBytes, instanceIdBytes, reservation};
    }

    private LockHandle held(String key, String lockKey, String token, long fencingToken, Lease lease, long sentNanos) {
        Hold hold = new Hold(
                key, lockKey, token, fencingToken, lease, leaseMillis(lease), sentNanos, renewer.callbackExecutor());
        live.add(hold);
        if (lease.isRenewed()) {
            renewer.track(hold);
        }
        return new RedisLockHandle(this, hold, lease);
    }

    /**
     * A nested acquisition inside a scope of this thread that holds the key (a {@link LockContext} scope, or a
     * {@link JavaLockView} lock), confirmed in Redis and sharing that hold. Anywhere else, even on a thread that
     * acquired the key before, an acquisition is a new owner's: the earlier handle may have been handed to other code.
     *
     * @param deadline when the caller's wait ends, or {@link WaitingRoom#FOREVER} for the command timeout
     * @return the nested handle, or null if no scope of this thread holds the key
     */
    private @Nullable LockHandle reenter(String key, Lease lease, long deadline) {
        RedisLockHandle outer = heldByThisThread(key);
        if (outer == null) {
            return null;
        }
        Hold hold = outer.hold();
        if (!hold.join(lease)) {
            return null;
        }
        boolean confirmed = false;
        try {
            LockLostException lost = hold.lostOrNull();
            if (lost != null) {
                throw lost;
            }
            long leaseMillis = leaseMillis(lease);
            ScriptRunner.Sent<Long> sent = runner.send(
                    key,
                    "re-enter",
                    LockScripts.CONFIRM,
                    new byte[][] {hold.lockKeyBytes()},
                    hold.tokenBytes(),
                    RedisKeys.bytes(Long.toString(leaseMillis)));
            long timeout = answerWait(deadline);
            long result;
            try {
                result = ScriptRunner.awaitUninterruptibly(sent.answer(), timeout, key, "re-enter");
            } catch (TimeoutException e) {
                throw ScriptRunner.timeout(key, "re-enter", timeout);
            }
            if (result != 1) {
                throw lost(hold, result);
            }
            hold.leaseAtLeast(sent.sentNanos(), leaseMillis);
            if (lease.isRenewed()) {
                renewer.track(hold);
            }
            confirmed = true;
            return new RedisLockHandle(this, hold, lease);
        } finally {
            if (!confirmed) {
                release(hold, lease);
            }
        }
    }

    private @Nullable RedisLockHandle heldByThisThread(String key) {
        Optional<LockHandle> scoped = LockContext.current(key);
        if (scoped.isPresent() && scoped.get() instanceof RedisLockHandle handle && handle.belongsTo(this)) {
            return handle;
        }
        return threadOwned.innermost(key);
    }

    /**
     * A handle was collected without being released. It no longer keeps the hold renewed, and a hold without open
     * handles is forgotten; nothing is sent to Redis, since the work that asked for the lock may still run, so the key
     * expires with its lease.
     */
    void dropped(Hold hold, Lease handleLease) {
        if (hold.leave(handleLease)) {
            live.remove(hold);
            renewer.untrack(hold);
        }
    }

    void release(Hold hold, Lease handleLease) {
        if (!hold.leave(handleLease)) {
            LockLostException lost = hold.lostOrNull();
            if (lost != null) {
                throw lost;
            }
            return;
        }
        live.remove(hold);
        renewer.untrack(hold);
        boolean othersFirst = false;
        // A lease known to have run out is the more telling reason than the missing key Redis will report.
        if (hold.lostOrNull() == null) {
            WaitingRoom.Waiter next = waitingRoom.reserveNext(hold.lockKey());
            if (next != null) {
                handOver(hold, next);
                return;
            }
            othersFirst = waitingRoom.othersFirst(hold.lockKey());
        }
        long result = -2;
        try {
            result = runner.awaitAnswerUninterruptibly(
                    sendRelease(hold.key(), hold.lockKey(), hold.token(), othersFirst ? OTHERS_TURN : NO_RESERVATION)
                            .answer(),
                    hold.key(),
                    "release");
        } catch (LockBackendException e) {
            throw releaseFailed(hold, e);
        } finally {
            if (result == 2) {
                waitingRoom.othersTurn(hold.lockKey(), TimeUnit.MILLISECONDS.toNanos(OTHERS_TURN_MILLIS));
            } else {
                waitingRoom.released(hold.lockKey());
            }
        }
        if (result > 0 && hold.markReleased()) {
            return;
        }
        throw lost(hold, result);
    }

    /**
     * Ends a hold whose release Redis did not confirm; it expires with its lease. The loss, if the hold was already
     * known lost, is the more telling exception; otherwise the backend failure.
     */
    private static RuntimeException releaseFailed(Hold hold, LockBackendException failure) {
        LockLostException lost = hold.lostOrNull();
        hold.markReleased();
        if (lost == null) {
            return failure;
        }
        lost.addSuppressed(failure);
        return lost;
    }

    /** Releases the hold by giving the key straight to a waiter of this instance, in one round trip. */
    private void handOver(Hold hold, WaitingRoom.Waiter next) {
        String receiver = next.token();
        ScriptRunner.Sent<Long> sent;
        long result;
        try {
            sent = runner.send(
                    hold.key(),
                    "release",
                    LockScripts.HAND_OVER,
                    new byte[][] {hold.lockKeyBytes(), RedisKeys.fenceKey(hold.lockKey())},
                    hold.tokenBytes(),
                    RedisKeys.bytes(receiver),
                    RedisKeys.bytes(Long.toString(next.leaseMillis())),
                    instanceIdBytes);
            result = runner.awaitAnswerUninterruptibly(sent.answer(), hold.key(), "release");
        } catch (LockBackendException e) {
            // Unknown whether Redis handed the key over: the waiter goes on with a new token, both old ones are freed.
            next.unreserve(this::newToken);
            releaseInBackground(hold.key(), hold.lockKey(), receiver);
            releaseInBackground(hold.key(), hold.lockKey(), hold.token());
            throw releaseFailed(hold, e);
        }
        if (result <= 0) {
            next.unreserve(null);
            throw lost(hold, result);
        }
        if (!next.deliver(result / 2, sent.sentNanos(), result % 2 == 1)) {
            releaseInBackground(hold.key(), hold.lockKey(), receiver);
        }
        if (!hold.markReleased()) {
            throw lost(hold, 0);
        }
    }

    boolean isHeld(Hold hold) {
        return status(hold) >= 0;
    }

    Duration remainingLease(Hold hold) {
        return Duration.ofMillis(Math.max(0, status(hold)));
    }

    void extend(Hold hold, Duration lease) {
        long leaseMillis = Lease.fixed(lease).duration().toMillis();
        LockLostException lost = hold.lostOrNull();
        if (lost != null) {
            throw lost;
        }
        ScriptRunner.Sent<Long> sent = runner.send(
                hold.key(),
                "extend",
                LockScripts.EXTEND,
                new byte[][] {hold.lockKeyBytes()},
                hold.tokenBytes(),
                RedisKeys.bytes(Long.toString(leaseMillis)));
        long result = runner.awaitAnswerUninterruptibly(sent.answer(), hold.key(), "extend");
        if (result != 1) {
            throw lost(hold, result);
        }
        hold.leaseSet(sent.sentNanos(), leaseMillis);
    }

    void onLost(Hold hold, Consumer<LockLostException> callback) {
        hold.onLost(callback);
        if (!hold.isRenewed()) {
            renewer.watchExpiry(hold);
        }
    }

    /** The hold's PTTL in ms if it still owns its key, or a negative number once it is released or lost. */
    private long status(Hold hold) {
        if (hold.hasEnded()) {
            return -1;
        }
        ScriptRunner.Sent<Long> sent = runner.send(
                hold.key(), "check", LockScripts.STATUS, new byte[][] {hold.lockKeyBytes()}, hold.tokenBytes());
        long result = runner.awaitAnswerUninterruptibly(sent.answer(), hold.key(), "check");
        if (result < 0) {
            hold.markLost(result == -1 ? Reason.OWNED_BY_OTHER : Reason.KEY_GONE);
        }
        return result;
    }

    /** Marks the hold lost from a script's answer (0: key gone, -1: another owner) and returns the loss. */
    private static LockLostException lost(Hold hold, long scriptResult) {
        hold.markLost(scriptResult == 0 ? Reason.KEY_GONE : Reason.OWNED_BY_OTHER);
        LockLostException lost = hold.lostOrNull();
        if (lost == null) {
            throw new IllegalStateException("hold of '" + hold.key() + "' was released while it was found lost");
        }
        return lost;
    }

    private long leaseMillis(Lease lease) {
        return lease.isRenewed() ? renewer.leaseMillis() : lease.duration().toMillis();
    }

    private String newToken() {
        return randomText(16);
    }

    private String randomText(int bytes) {
        byte[] random = new byte[bytes];
        this.random.nextBytes(random);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }

    private void validate(String key, Lease lease) {
        if (closed) {
            throw closed(key);
        }
        RedisKeys.validate(key);
        if (lease == null) {
            throw new IllegalArgumentException("lease must not be null; use Lease.fixed(...) or Lease.renewed()");
        }
    }

    private IllegalStateException closed(String key) {
        return new IllegalStateException("lock '" + key + "' cannot be acquired: " + this + " is closed (the "
                + "application is shutting down)");
    }

    private static long saturatedNanos(Duration wait) {
        try {
            return Math.min(wait.toNanos(), Long.MAX_VALUE - 1);
        } catch (ArithmeticException tooLong) {
            return Long.MAX_VALUE - 1;
        }
    }

    /** A renewal that waits longer than the lease for its answer comes too late; say so while it can be fixed. */
    private void warnIfCommandTimeoutOutlastsLease(Builder builder) {
        long timeoutMillis = TimeUnit.NANOSECONDS.toMillis(runner.commandTimeoutNanos());
        if (timeoutMillis >= builder.watchdogLease.toMillis()) {
            log.warn(
                    "The Redis command timeout ({} ms) is not shorter than distlock's watchdog lease ({}): a Redis "
                            + "call that hangs can outlast an auto-renewed lease. Set spring.data.redis.timeout (or the "
                            + "connection factory's timeout) well below the lease, for example 2s",
                    timeoutMillis,
                    builder.watchdogLease);
        }
    }

    @Override
    public String toString() {
        return "RedisLock[prefix=" + keys.prefix() + "]";
    }

    /** Settings of a {@link RedisLock}. */
    public static final class Builder {

        private final LettuceConnectionFactory connectionFactory;
        private String keyPrefix = "distlock:";
        private Duration watchdogLease = Duration.ofSeconds(30);
        private @Nullable Duration renewInterval;
        private @Nullable ReleaseSubscription releaseSubscription;
        private Duration shutdownGracePeriod = Duration.ofSeconds(10);

        private Builder(LettuceConnectionFactory connectionFactory) {
            this.connectionFactory = connectionFactory;
        }

        /**
         * Sets the prefix of every Redis key and of the release channel. Locks with different prefixes never see each
         * other.
         *
         * @param keyPrefix a non-blank prefix without '{' or '}'; default {@code "distlock:"}
         * @return this builder
         */
        public Builder keyPrefix(String keyPrefix) {
            this.keyPrefix = keyPrefix;
            return this;
        }

        /**
         * Sets the lease of auto-renewed acquisitions: how long a lock outlives a holder that died.
         *
         * @param watchdogLease from 100 ms to {@link Lease#MAX_FIXED}; default 30 s
         * @return this builder
         */
        public Builder watchdogLease(Duration watchdogLease) {
            this.watchdogLease = watchdogLease;
            return this;
        }

        /**
         * Sets how often auto-renewed leases are renewed.
         *
         * @param renewInterval positive and shorter than the watchdog lease; default a third of it
         * @return this builder
         */
        public Builder renewInterval(Duration renewInterval) {
            this.renewInterval = renewInterval;
            return this;
        }

        /**
         * Shares the application's release subscription instead of opening one for this lock.
         *
         * @param releaseSubscription the shared subscription; it is not closed with the lock
         * @return this builder
         */
        public Builder releaseSubscription(ReleaseSubscription releaseSubscription) {
            this.releaseSubscription = releaseSubscription;
            return this;
        }

        /**
         * Sets how long {@link RedisLock#close()} keeps renewing and waits for held locks to be released before it
         * reports them lost.
         *
         * @param shutdownGracePeriod zero or positive; default 10 s
         * @return this builder
         */
        public Builder shutdownGracePeriod(Duration shutdownGracePeriod) {
            this.shutdownGracePeriod = shutdownGracePeriod;
            return this;
        }

        /**
         * Validates the settings and creates the lock. Nothing is sent to Redis yet.
         *
         * @return the lock
         * @throws IllegalArgumentException naming the setting that is out of range
         */
        public RedisLock build() {
            new RedisKeys(keyPrefix);
            if (watchdogLease == null
                    || watchdogLease.compareTo(Duration.ofMillis(100)) < 0
                    || watchdogLease.compareTo(Lease.MAX_FIXED) > 0) {
                throw new IllegalArgumentException(
                        "watchdog lease must be from 100 ms to " + Lease.MAX_FIXED + ", but was " + watchdogLease);
            }
            Duration interval = renewInterval();
            if (interval.isZero() || interval.isNegative() || interval.compareTo(watchdogLease) >= 0) {
                throw new IllegalArgumentException(
                        "renew interval must be positive and shorter than the watchdog lease (" + watchdogLease
                                + "), but was " + interval);
            }
            if (shutdownGracePeriod == null || shutdownGracePeriod.isNegative()) {
                throw new IllegalArgumentException(
                        "shutdown grace period must be zero or positive, but was " + shutdownGracePeriod);
            }
            return new RedisLock(this);
        }

        private Duration renewInterval() {
            return renewInterval != null ? renewInterval : watchdogLease.dividedBy(3);
        }
    }
}
