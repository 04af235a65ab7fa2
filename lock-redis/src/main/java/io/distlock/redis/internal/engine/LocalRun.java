package io.distlock.redis.internal.engine;

import io.distlock.redis.internal.engine.LockCommands.Ownership;
import io.distlock.redis.internal.engine.RunConfirmations.RunConfirmed;
import io.distlock.redis.internal.scripts.ScriptCall;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * One run of local handovers: the holds of this instance that take a key in turn under the owner token Redis granted
 * to the first of them, each with the next fencing token of the block that grant reserved.
 *
 * <p>A handover happens only while the key's lease in Redis, as last confirmed, covers the whole lease the receiver
 * asked for, counted from the handover. The releasing hold's release returns once a confirmation sent after its
 * section ended found the token still owning the key: the token cannot come back once its key expired or was taken, so
 * that proves the key was held without a break from the grant until then. One confirmation is in flight at a time;
 * the releases that come meanwhile share the next one. The run ends when a release or handover through Redis is sent
 * for its token ({@link #end}); confirmations still waiting take that command's answer instead of going to Redis after
 * it, where they would find the key gone.
 *
 * <p>Confirmations are sent under this run's monitor, and {@link #end} takes it before the ending command is sent, so
 * every confirmation reaches the connection before that command does.
 */
final class LocalRun {

    private final long windowMillis;
    private final long lastFence;
    private final Supplier<ScriptCall<RunConfirmed>> confirmation;

    /** Guarded by this. */
    private long nextFence;
    /** When the key's lease in Redis ends at the earliest, by the monotonic clock; guarded by this. */
    private long redisEndsByNanos;
    /** Guarded by this. */
    private boolean othersWait;
    /** Guarded by this: the run hands over no more. */
    private boolean over;
    /** Guarded by this: a confirmation found the key not owned, or failed. */
    private boolean doubtful;
    /** The confirmation in flight; guarded by this. */
    private @Nullable CompletableFuture<Ownership> sent;
    /** The confirmation the releases since {@link #sent} was sent wait for; guarded by this. */
    private @Nullable CompletableFuture<Ownership> next;
    /** What the command that ended the run found, once {@link #end} was called; guarded by this. */
    private @Nullable CompletableFuture<Ownership> endedWith;

    /**
     * @param firstFence the fencing token Redis granted, the first of {@link LocalHandovers#FENCES} reserved
     * @param sentNanos when the granting command was sent
     * @param redisMillis the lease the grant set in Redis: the lease asked and the window
     * @param windowMillis what the lease in Redis adds to the lease asked
     * @param confirmation sends a confirmation of the run's token
     */
    LocalRun(
            long firstFence,
            long sentNanos,
            long redisMillis,
            long windowMillis,
            Supplier<ScriptCall<RunConfirmed>> confirmation) {
        this.nextFence = firstFence + 1;
        this.lastFence = firstFence + LocalHandovers.FENCES - 1;
        this.redisEndsByNanos = sentNanos + TimeUnit.MILLISECONDS.toNanos(redisMillis);
        this.windowMillis = windowMillis;
        this.confirmation = confirmation;
    }

    /**
     * A handover inside the run.
     *
     * @param fencingToken the receiver's, the next of the run's block
     * @param othersWait whether waiters of other instances marked the key, as last seen
     * @param confirmed completes with what the confirmation that covers the releasing hold found
     */
    record Handover(long fencingToken, boolean othersWait, CompletableFuture<Ownership> confirmed) {}

    /**
     * Hands the key over inside the run, if the run goes on, has a fencing token left and its lease in Redis covers
     * the receiver's whole lease from now.
     *
     * @param receiverRedisMillis the lease the receiver would ask Redis for: its own lease and the window
     * @return the handover, or null if the key must go through Redis
     */
    synchronized @Nullable Handover handOver(long receiverRedisMillis) {
        if (over || nextFence > lastFence) {
            return null;
        }
        long receiverLeaseNanos = TimeUnit.MILLISECONDS.toNanos(receiverRedisMillis - windowMillis);
        if (redisEndsByNanos - System.nanoTime() < receiverLeaseNanos) {
            return null;
        }
        CompletableFuture<Ownership> confirmed;
        if (sent == null) {
            confirmed = new CompletableFuture<>();
            send(confirmed);
        } else {
            if (next == null) {
                next = new CompletableFuture<>();
            }
            confirmed = next;
        }
        return new Handover(nextFence++, othersWait, confirmed);
    }

    /** Under the monitor. */
    private void send(CompletableFuture<Ownership> confirmed) {
        sent = confirmed;
        ScriptCall<RunConfirmed> call = confirmation.get();
        call.answerWithinTimeout().whenComplete((answer, failure) -> answered(call, answer, failure, confirmed));
    }

    private void answered(
            ScriptCall<RunConfirmed> call,
            @Nullable RunConfirmed answer,
            @Nullable Throwable failure,
            CompletableFuture<Ownership> confirmed) {
        CompletableFuture<Ownership> sharesTheAnswer = null;
        CompletableFuture<Ownership> ended;
        synchronized (this) {
            ended = endedWith;
            if (answer != null && answer.ownership() == Ownership.OWNED) {
                redisEndsByNanos = Math.max(
                        redisEndsByNanos, call.sentNanos() + TimeUnit.MILLISECONDS.toNanos(answer.leaseMillis()));
                othersWait = answer.othersWait();
            } else {
                // Lost, or unknown: the holds from here on go through Redis, which tells them.
                over = true;
                doubtful = true;
            }
            sent = null;
            CompletableFuture<Ownership> waiting = next;
            next = null;
            if (waiting != null && doubtful) {
                // A key not owned when this was sent cannot be owned by the token later, nor is a failure known to
                // be over: the releases waiting for the next confirmation learn the same.
                sharesTheAnswer = waiting;
            } else if (waiting != null) {
                send(waiting);
            }
        }
        if (ended != null && (answer == null || answer.ownership() != Ownership.OWNED)) {
            // Sent before the command that ended the run, yet perhaps run after it (sent again by text after a
            // NOSCRIPT): both were sent after the sections it covers ended, so either finding the token owning the key
            // proves them covered.
            ended.whenComplete((found, endFailure) -> {
                if (found == Ownership.OWNED) {
                    confirmed.complete(Ownership.OWNED);
                } else {
                    complete(confirmed, answer, failure);
                }
            });
        } else {
            complete(confirmed, answer, failure);
        }
        if (sharesTheAnswer != null) {
            complete(sharesTheAnswer, answer, failure);
        }
    }

    private static void complete(
            CompletableFuture<Ownership> confirmed, @Nullable RunConfirmed answer, @Nullable Throwable failure) {
        if (answer != null) {
            confirmed.complete(answer.ownership());
        } else {
            confirmed.completeExceptionally(
                    failure == null ? new IllegalStateException("a run's confirmation had no answer") : failure);
        }
    }

    /**
     * Ends the run; call before sending the release or handover through Redis that ends it.
     *
     * @param endedWith completes with what that command finds
     * @return the confirmation that releases still wait for, which that command's answer must complete; null if none
     */
    synchronized @Nullable CompletableFuture<Ownership> end(CompletableFuture<Ownership> endedWith) {
        over = true;
        this.endedWith = endedWith;
        CompletableFuture<Ownership> waiting = next;
        next = null;
        return waiting;
    }

    /** Stops handing over, for a hold nobody will release; confirmations still due go to Redis. */
    synchronized void stop() {
        over = true;
    }
}
