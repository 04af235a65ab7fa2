package io.distlock.redis.internal.engine;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.internal.engine.HoldHandle;
import io.distlock.internal.engine.HoldOperations;
import io.distlock.monitor.LockKind;
import io.distlock.redis.internal.engine.LockCommands.Ownership;
import io.distlock.redis.internal.engine.LockCommands.Status;
import io.distlock.redis.internal.scripts.ScriptCall;
import io.distlock.redis.internal.waiting.Waits;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;

/**
 * The holds of one {@link io.distlock.redis.RedisLock}: starts them when Redis grants a key, and serves what their
 * handles ask of Redis (check, extend, release) and of the renewer.
 */
public final class Holds implements HoldOperations<Hold> {

    private final LockCommands commands;
    private final LiveHolds live;
    private final LeaseRenewer renewer;
    private final Releaser releaser;
    private final LockKind exclusiveKind;
    private final @Nullable LocalHandovers handovers;

    /** @param exclusiveKind the kind of the holds {@link #held} starts: the exclusive lock's, or a path lock's */
    public Holds(
            LockCommands commands, LiveHolds live, LeaseRenewer renewer, Releaser releaser, LockKind exclusiveKind) {
        this(commands, live, renewer, releaser, exclusiveKind, null);
    }

    /**
     * @param handovers where exclusive grants start their runs of local handovers, or null where the lock hands over
     *     through Redis only
     */
    public Holds(
            LockCommands commands,
            LiveHolds live,
            LeaseRenewer renewer,
            Releaser releaser,
            LockKind exclusiveKind,
            @Nullable LocalHandovers handovers) {
        this.exclusiveKind = exclusiveKind;
        this.commands = commands;
        this.live = live;
        this.renewer = renewer;
        this.releaser = releaser;
        this.handovers = handovers;
    }

    /**
     * The lease an exclusive acquisition that waited behind others of this instance asks Redis for: the lease asked,
     * and with local handovers the window beside it, so that a handover inside the run its grant starts is covered. An
     * acquisition that found nobody waiting asks for its lease alone: no run is likely to follow it.
     */
    public long redisMillis(LeaseAsked lease) {
        return handovers == null ? lease.storeMillis() : handovers.redisMillis(lease.storeMillis());
    }

    /**
     * Starts a hold on a key Redis has just granted to an exclusive acquisition of {@code token}, which asked it for
     * {@code redisMillis}, counting its lease from {@code sentNanos}. With local handovers, a grant that asked for more
     * than the lease ({@link #redisMillis}) starts a run.
     */
    public LockHandle granted(
            String key,
            String lockKey,
            String token,
            long fencingToken,
            LeaseAsked lease,
            long sentNanos,
            long redisMillis) {
        if (handovers != null && redisMillis > lease.storeMillis()) {
            handovers.started(key, lockKey, token, fencingToken, sentNanos, redisMillis);
        }
        return held(key, lockKey, token, fencingToken, lease, sentNanos);
    }

    /** Starts a hold on a key Redis has just given to {@code token}, counting its lease from {@code sentNanos}. */
    public LockHandle held(
            String key, String lockKey, String token, long fencingToken, LeaseAsked lease, long sentNanos) {
        Hold hold = start(key, lockKey, token, fencingToken, lease, sentNanos, lease.storeMillis(), exclusiveKind);
        return joined(hold, lease.lease());
    }

    /** Starts a reader's hold: {@code token} is a field of the lock key, a hash while readers hold it. */
    public LockHandle heldRead(
            String key, String lockKey, String token, long fencingToken, LeaseAsked lease, long sentNanos) {
        Hold hold = start(key, lockKey, token, fencingToken, lease, sentNanos, lease.storeMillis(), LockKind.READ);
        return joined(hold, lease.lease());
    }

    /** Starts the hold of a semaphore's permit, a field of {@code permitsKey} as a reader's share is of a lock key. */
    public LockHandle heldPermit(
            String key, String permitsKey, String token, long fencingToken, LeaseAsked lease, long sentNanos) {
        Hold hold =
                start(key, permitsKey, token, fencingToken, lease, sentNanos, lease.storeMillis(), LockKind.SEMAPHORE);
        return joined(hold, lease.lease());
    }

    /**
     * Starts a hold of the fair lock on a key Redis set to expire {@code grantedMillis} after {@code startNanos} at the
     * earliest, and extends it in the background to the full lease if that is longer.
     */
    public LockHandle heldFair(
            String key,
            String lockKey,
            String token,
            long fencingToken,
            LeaseAsked lease,
            long startNanos,
            long grantedMillis) {
        long leaseMillis = lease.storeMillis();
        Hold hold = start(key, lockKey, token, fencingToken, lease, startNanos, grantedMillis, LockKind.FAIR);
        LockHandle handle = joined(hold, lease.lease());
        if (grantedMillis < leaseMillis) {
            // Most held sections end long before a third of the short lease: only those that do not pay the extension.
            CompletableFuture.delayedExecutor(grantedMillis / 3, TimeUnit.MILLISECONDS, renewer.callbackExecutor())
                    .execute(() -> extendHandedOver(hold, leaseMillis));
        }
        return handle;
    }

    /** A live hold whose key Redis set to expire {@code grantedMillis} after {@code startNanos} at the earliest. */
    private Hold start(
            String key,
            String lockKey,
            String token,
            long fencingToken,
            LeaseAsked lease,
            long startNanos,
            long grantedMillis,
            LockKind kind) {
        Hold hold = new Hold(
                key,
                lockKey,
                token,
                fencingToken,
                lease.lease(),
                lease.storeMillis(),
                startNanos,
                renewer.callbackExecutor(),
                kind);
        hold.leaseSet(startNanos, grantedMillis);
        live.add(hold);
        return hold;
    }

    private void extendHandedOver(Hold hold, long leaseMillis) {
        if (hold.hasEnded()) {
            return;
        }
        // At least, never exactly: a nested acquisition may have lengthened the lease meanwhile, and its handle counts
        // on that.
        ScriptCall<Ownership> call = commands.confirm(hold, leaseMillis);
        call.answer().thenAccept(found -> {
            if (found == Ownership.OWNED) {
                hold.leaseAtLeast(call.sentNanos(), leaseMillis);
            } else {
                hold.markLost(found.lossReason());
            }
        });
    }

    /**
     * A nested handle on a hold of a scope, confirmed in Redis; null if that hold just ended.
     *
     * @param deadline when the caller's wait ends, or {@link io.distlock.redis.internal.waiting.Waits#FOREVER} for the
     *     command timeout
     */
    @Nullable
    public LockHandle join(Hold hold, LeaseAsked asked, long deadline) {
        Lease lease = asked.lease();
        if (!hold.join(lease)) {
            return null;
        }
        boolean confirmed = false;
        try {
            LockLostException lost = hold.lostOrNull();
            if (lost != null) {
                throw lost;
            }
            long leaseMillis = asked.storeMillis();
            ScriptCall<Ownership> call = commands.confirm(hold, leaseMillis);
            long timeout = Waits.answerWait(commands.answerTimeoutNanos(), deadline);
            Ownership found;
            try {
                found = call.awaitUninterruptibly(timeout);
            } catch (TimeoutException e) {
                throw call.timedOut(timeout);
            }
            if (found != Ownership.OWNED) {
                throw Releaser.lost(hold, found);
            }
            hold.leaseAtLeast(call.sentNanos(), leaseMillis);
            confirmed = true;
            return joined(hold, lease);
        } finally {
            if (!confirmed) {
                releaser.release(hold, lease);
            }
        }
    }

    /** A new handle on a hold, for a new or a nested acquisition. */
    LockHandle joined(Hold hold, Lease lease) {
        if (lease.isRenewed()) {
            renewer.track(hold);
        }
        return new HoldHandle<>(this, hold, lease);
    }

    @Override
    public void release(Hold hold, Lease handleLease) {
        releaser.release(hold, handleLease);
    }

    @Override
    public void releaseHolding(Hold hold, Lease handleLease, Duration rest) {
        releaser.releaseHolding(hold, handleLease, rest.toMillis());
    }

    /** Completes on a distlock thread, never on one of the Redis client's. */
    @Override
    public CompletionStage<Void> releaseAsync(Hold hold, Lease handleLease) {
        return releaser.releaseAsync(hold, handleLease).whenCompleteAsync((done, failure) -> {}, AsyncThreads.shared());
    }

    @Override
    public void dropped(Hold hold, Lease handleLease) {
        releaser.dropped(hold, handleLease);
    }

    @Override
    public boolean isHeld(Hold hold) {
        return status(hold).ownership() == Ownership.OWNED;
    }

    @Override
    public Duration remainingLease(Hold hold) {
        return Duration.ofMillis(status(hold).remainingMillis());
    }

    @Override
    public boolean isLost(Hold hold) {
        return hold.lostOrNull() != null;
    }

    @Override
    public void extend(Hold hold, Duration lease) {
        long leaseMillis = Lease.fixed(lease).duration().toMillis();
        LockLostException lost = hold.lostOrNull();
        if (lost != null) {
            throw lost;
        }
        hold.leaseReset();
        ScriptCall<Ownership> call = commands.extend(hold, leaseMillis);
        Ownership found = call.awaitAnswer();
        if (found != Ownership.OWNED) {
            throw Releaser.lost(hold, found);
        }
        hold.leaseSet(call.sentNanos(), leaseMillis);
    }

    @Override
    public void onLost(Hold hold, Consumer<LockLostException> callback) {
        hold.onLost(callback);
        if (!hold.isRenewed()) {
            renewer.watchExpiry(hold);
        }
    }

    /** Asks Redis whether the hold still owns its key; a hold found lost is marked so. */
    private Status status(Hold hold) {
        if (hold.hasEnded()) {
            return new Status(Ownership.GONE, 0);
        }
        Status status = commands.status(hold).awaitAnswer();
        if (status.ownership() != Ownership.OWNED) {
            hold.markLost(status.ownership().lossReason());
        }
        return status;
    }

    /** The lease as Redis counts it: the watchdog lease for a renewed one. */
    public LeaseAsked resolve(Lease lease) {
        return new LeaseAsked(
                lease,
                lease.isRenewed() ? renewer.leaseMillis() : lease.duration().toMillis());
    }
}
