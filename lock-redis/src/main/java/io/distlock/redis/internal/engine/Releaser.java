package io.distlock.redis.internal.engine;

import io.distlock.Lease;
import io.distlock.LockBackendException;
import io.distlock.LockLostException;
import io.distlock.redis.internal.engine.LockCommands.HandedOver;
import io.distlock.redis.internal.engine.LockCommands.Ownership;
import io.distlock.redis.internal.engine.LockCommands.Released;
import io.distlock.redis.internal.scripts.ScriptCall;
import io.distlock.redis.internal.waiting.Waiter;
import io.distlock.redis.internal.waiting.WaitingRoom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Ends holds: hands the key straight to the longest waiting thread of this instance when there is one, and otherwise
 * releases it in Redis and lets the next waiter try. After {@value KeyQueue#MAX_HANDOVERS_WHILE_OTHERS_WAIT}
 * handovers in a row while other instances wait, the release reserves the key for them for {@value
 * #OTHERS_TURN_MILLIS} ms instead. With {@link LocalHandovers}, a handover inside a run goes without Redis, and every
 * command that ends a run goes through {@link LocalHandovers#end}.
 */
public final class Releaser {

    /**
     * How long a release that ends a run of handovers reserves the key for other instances' waiters: long enough for
     * the announcement to reach them and one of them to answer, short enough to cost little when none does.
     */
    public static final long OTHERS_TURN_MILLIS = 20;

    private final LockCommands commands;
    private final WaitingRoom waitingRoom;
    private final LiveHolds live;
    private final LeaseRenewer renewer;
    private final Supplier<String> newToken;
    private final @Nullable QueueRelease fair;
    private final ObserverCalls observer;
    private final @Nullable LocalHandovers handovers;

    /**
     * The release of a hold taken through a queue in Redis (the fair lock's), which hands the key to the first waiter
     * of that queue, of whatever instance.
     */
    @FunctionalInterface
    public interface QueueRelease {
        ScriptCall<Ownership> release(String key, String lockKey, String token);
    }

    /**
     * @param fair the release of fair holds, or null where there is no fair lock
     * @param handovers the runs of local handovers, or null where every handover goes through Redis
     */
    public Releaser(
            LockCommands commands,
            WaitingRoom waitingRoom,
            LiveHolds live,
            LeaseRenewer renewer,
            Supplier<String> newToken,
            @Nullable QueueRelease fair,
            ObserverCalls observer,
            @Nullable LocalHandovers handovers) {
        this.handovers = handovers;
        this.observer = observer;
        this.commands = commands;
        this.waitingRoom = waitingRoom;
        this.live = live;
        this.renewer = renewer;
        this.newToken = newToken;
        this.fair = fair;
    }

    /**
     * Closes one handle of the hold; the last open handle ends the hold.
     *
     * @throws LockLostException if the hold was found lost, now or before
     * @throws LockBackendException if Redis did not confirm the release; the key then expires with its lease
     */
    void release(Hold hold, Lease handleLease) {
        try {
            release(hold, handleLease, true).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException failure ? failure : e;
        }
    }

    /**
     * Closes one handle of the hold like {@link #release(Hold, Lease)}, without blocking: the result completes on a
     * client thread, or fails with what {@code release} throws.
     */
    CompletableFuture<Void> releaseAsync(Hold hold, Lease handleLease) {
        return release(hold, handleLease, false);
    }

    /**
     * @param block whether to wait for Redis on the calling thread, so that the result is complete on return and
     *     everything ran on the caller's thread, as a blocking release should
     */
    private CompletableFuture<Void> release(Hold hold, Lease handleLease, boolean block) {
        if (!hold.leave(handleLease)) {
            LockLostException lost = hold.lostOrNull();
            return lost == null ? CompletableFuture.completedFuture(null) : CompletableFuture.failedFuture(lost);
        }
        forget(hold);
        if (hold.isFair() && fair != null) {
            return releaseFair(hold, fair, block);
        }
        boolean othersFirst = false;
        // A lease known to have run out is the more telling reason than the missing key Redis will report.
        // A reader's or permit's release never hands the key over: other readers or permits may still hold it.
        if (hold.lostOrNull() == null && !hold.isRead() && !hold.isPermit()) {
            Waiter next = commands.handsOver() ? waitingRoom.reserveNext(hold.lockKey()) : null;
            if (next != null) {
                LocalRun.Handover local = handovers == null ? null : handovers.handOver(hold, next.leaseMillis());
                return local == null ? handOver(hold, next, block) : handOverLocally(hold, local, next, block);
            }
            othersFirst = waitingRoom.othersFirst(hold.lockKey());
        }
        boolean reserve = othersFirst;
        return ending(
                        hold.token(),
                        () -> answer(commands.release(hold.key(), hold.lockKey(), hold.token(), reserve), block),
                        Released::ownership)
                .handle((released, failure) -> {
                    if (released != null && released.reservedForOthers()) {
                        waitingRoom.othersTurn(hold.lockKey(), TimeUnit.MILLISECONDS.toNanos(OTHERS_TURN_MILLIS));
                    } else if (released == null || !released.readersRemain() || hold.isPermit()) {
                        // A reader leaving while others stay frees nothing: waking every waiter would only send them
                        // all to be refused again. A permit coming back frees a place whatever else is held.
                        waitingRoom.released(hold.lockKey());
                    }
                    if (failure != null) {
                        throw releaseFailed(hold, failure);
                    }
                    if (released.ownership() == Ownership.OWNED && hold.markReleased()) {
                        return null;
                    }
                    throw lost(hold, released.ownership());
                });
    }

    /** Redis's answer, waited for here when {@code block}. */
    private static <T> CompletableFuture<T> answer(ScriptCall<T> call, boolean block) {
        if (!block) {
            return call.answerWithinTimeout();
        }
        try {
            return CompletableFuture.completedFuture(call.awaitAnswer());
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
    }

    /**
     * Closes one handle of the hold; the last open handle ends the hold but leaves the key owned in Redis for {@code
     * restMillis}, by the token-checked extension every kind of hold has. Nothing is handed over: this instance's
     * waiters are only told to look again, so that they wait for the new end of the lease rather than the one they
     * saw.
     *
     * @throws LockLostException if the hold was found lost, now or before
     * @throws LockBackendException if Redis did not confirm; the key then expires with the lease it had
     */
    void releaseHolding(Hold hold, Lease handleLease, long restMillis) {
        if (!hold.leave(handleLease)) {
            LockLostException lost = hold.lostOrNull();
            if (lost != null) {
                throw lost;
            }
            return;
        }
        forget(hold);
        Ownership found;
        try {
            found = ending(
                            hold.token(),
                            () -> {
                                hold.leaseReset();
                                return answer(commands.extend(hold, restMillis), true);
                            },
                            ownership -> ownership)
                    .join();
        } catch (CompletionException e) {
            throw releaseFailed(hold, e.getCause());
        } catch (RuntimeException e) {
            throw releaseFailed(hold, e);
        } finally {
            waitingRoom.released(hold.lockKey());
        }
        if (found != Ownership.OWNED || !hold.markReleased()) {
            throw lost(hold, found);
        }
    }

    /**
     * A handle was collected without being released. It no longer keeps the hold renewed, and a hold without open
     * handles is forgotten; nothing is sent to Redis, since the work that asked for the lock may still run, so the key
     * expires with its lease.
     */
    void dropped(Hold hold, Lease handleLease) {
        if (hold.leave(handleLease)) {
            forget(hold);
            if (handovers != null) {
                handovers.forget(hold.token());
            }
            hold.markDropped();
        }
    }

    /** Releases a fair hold, which hands the key to the first waiter in its queue in Redis, of whatever instance. */
    private static CompletableFuture<Void> releaseFair(Hold hold, QueueRelease fair, boolean block) {
        // A lease known to have run out is the more telling reason than the missing key Redis will report.
        hold.lostOrNull();
        return answer(fair.release(hold.key(), hold.lockKey(), hold.token()), block)
                .handle((found, failure) -> {
                    if (failure != null) {
                        throw releaseFailed(hold, failure);
                    }
                    if (found == Ownership.OWNED && hold.markReleased()) {
                        return null;
                    }
                    throw lost(hold, found);
                });
    }

    /**
     * Releases a lock nobody holds a handle on, then, once Redis answered, lets this instance's waiters try; failures
     * only cost a lease.
     */
    void releaseInBackground(String key, String lockKey, String token) {
        if (handovers == null || !handovers.hasRun(token)) {
            commands.releaseQuietlyThen(key, lockKey, token, () -> waitingRoom.released(lockKey));
            return;
        }
        // The run's releases that wait for a confirmation need to know what this release found.
        handovers
                .end(
                        token,
                        () -> commands.release(key, lockKey, token, false).answerWithinTimeout(),
                        Released::ownership)
                .thenAccept(released -> waitingRoom.released(lockKey));
    }

    /** Sends a command that ends the token's run, if it has one ({@link LocalHandovers#end}). */
    private <T> CompletableFuture<T> ending(
            String token, Supplier<CompletableFuture<T>> send, Function<T, Ownership> ownership) {
        return handovers == null ? send.get() : handovers.end(token, send, ownership);
    }

    /** Marks the hold lost for what a token-checked script found, and returns the loss. */
    static LockLostException lost(Hold hold, Ownership found) {
        hold.markLost(found.lossReason());
        LockLostException lost = hold.lostOrNull();
        if (lost == null) {
            throw new IllegalStateException("hold of '" + hold.key() + "' was released while it was found lost");
        }
        return lost;
    }

    private void forget(Hold hold) {
        live.remove(hold);
        renewer.untrack(hold);
    }

    /** Releases the hold by giving the key straight to a waiter of this instance, in one round trip. */
    private CompletableFuture<Void> handOver(Hold hold, Waiter next, boolean block) {
        String receiver = next.token();
        AtomicReference<ScriptCall<HandedOver>> sent = new AtomicReference<>();
        CompletableFuture<HandedOver> answered = ending(
                hold.token(),
                () -> {
                    sent.set(commands.handOver(hold, receiver, next.leaseMillis()));
                    return answer(sent.get(), block);
                },
                HandedOver::ownership);
        ScriptCall<HandedOver> call = sent.get();
        return answered.handle((handedOver, failure) -> {
            if (failure != null) {
                // Unknown whether Redis handed the key over: the waiter goes on with a new token, both old ones are
                // freed.
                next.unreserve(newToken);
                releaseInBackground(hold.key(), hold.lockKey(), receiver);
                releaseInBackground(hold.key(), hold.lockKey(), hold.token());
                throw releaseFailed(hold, failure);
            }
            if (handedOver.ownership() != Ownership.OWNED) {
                next.unreserve(null);
                throw lost(hold, handedOver.ownership());
            }
            if (handovers != null) {
                handovers.started(
                        hold.key(),
                        hold.lockKey(),
                        receiver,
                        handedOver.fencingToken(),
                        call.sentNanos(),
                        next.leaseMillis());
            }
            if (next.deliver(handedOver.fencingToken(), call.sentNanos(), handedOver.othersWait())) {
                observer.handedOver(hold.key());
            } else {
                releaseInBackground(hold.key(), hold.lockKey(), receiver);
            }
            if (!hold.markReleased()) {
                throw lost(hold, Ownership.GONE);
            }
            return null;
        });
    }

    /**
     * Releases the hold by giving the key to a waiter of this instance inside the hold's run, without Redis; the release
     * is over once the run's confirmation that covers it is answered.
     */
    private CompletableFuture<Void> handOverLocally(Hold hold, LocalRun.Handover local, Waiter next, boolean block) {
        if (next.deliverLocally(hold.token(), local.fencingToken(), System.nanoTime(), local.othersWait())) {
            observer.handedOver(hold.key());
        } else {
            // The waiter left as it was picked: the key goes back to Redis, which ends the run.
            releaseInBackground(hold.key(), hold.lockKey(), hold.token());
        }
        CompletableFuture<Ownership> confirmed = local.confirmed();
        if (block) {
            try {
                confirmed = CompletableFuture.completedFuture(confirmed.join());
            } catch (CompletionException e) {
                confirmed = CompletableFuture.failedFuture(e.getCause());
            }
        }
        return confirmed.handle((found, failure) -> {
            if (failure != null) {
                throw releaseFailed(hold, failure);
            }
            if (found == Ownership.OWNED && hold.markReleased()) {
                return null;
            }
            throw lost(hold, found == Ownership.OWNED ? Ownership.GONE : found);
        });
    }

    /**
     * Ends a hold whose release Redis did not confirm; it expires with its lease. The loss, if the hold was already
     * known lost, is the more telling exception; otherwise the backend failure.
     */
    private static RuntimeException releaseFailed(Hold hold, Throwable failure) {
        Throwable cause = ScriptCall.unwrap(failure);
        RuntimeException backend = cause instanceof RuntimeException runtime
                ? runtime
                : new IllegalStateException("release of lock '" + hold.key() + "' failed", cause);
        LockLostException lost = hold.lostOrNull();
        hold.markReleased();
        if (lost == null) {
            return backend;
        }
        lost.addSuppressed(backend);
        return lost;
    }
}
