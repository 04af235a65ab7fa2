package io.distlock.redis.internal.engine;

import io.distlock.redis.internal.engine.LockCommands.Ownership;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * Local handover, the opt-in mode for a hot key ({@link io.distlock.redis.RedisLockBuilder#localHandoverWindow}): a
 * release hands the key to the next waiting thread of this instance without a Redis round trip, within the {@link
 * LocalRun} its grant started. This is lock cohorting (Dice, Marathe and Shavit, PPoPP 2012) with the instance as the
 * cohort.
 *
 * <p>Every exclusive grant through Redis asks for the lease plus the window, and reserves {@value #FENCES} fencing
 * tokens; a run hands over while the lease it confirmed covers the receiver's, and while it has tokens left. While
 * other instances wait, at most {@value #MAX_HANDOVERS_WHILE_OTHERS_WAIT} handovers follow each other before the key
 * is released in Redis and reserved for them, as without local handover after fewer.
 */
public final class LocalHandovers {

    /** How many fencing tokens a grant reserves: its own and those of the run's local handovers. */
    public static final int FENCES = 64;

    /** How many handovers in a row a key may see in this instance while other instances wait for it. */
    public static final int MAX_HANDOVERS_WHILE_OTHERS_WAIT = 32;

    private final ConcurrentHashMap<String, LocalRun> runs = new ConcurrentHashMap<>();
    private final RunConfirmations confirmations;
    private final long windowMillis;

    /** @param windowMillis how much longer than the lease asked a run's key is kept in Redis */
    public LocalHandovers(RunConfirmations confirmations, long windowMillis) {
        this.confirmations = confirmations;
        this.windowMillis = windowMillis;
    }

    /** The lease to ask Redis for, for a hold of {@code leaseMillis}. */
    long redisMillis(long leaseMillis) {
        return leaseMillis + windowMillis;
    }

    /** Redis granted {@code token} the key, with {@link #FENCES} fencing tokens from {@code fencingToken} on. */
    void started(String key, String lockKey, String token, long fencingToken, long sentNanos, long redisMillis) {
        runs.put(
                token,
                new LocalRun(
                        fencingToken,
                        sentNanos,
                        redisMillis,
                        windowMillis,
                        () -> confirmations.confirm(key, lockKey, token, redisMillis)));
    }

    /** Whether {@code token} has a run that no release or handover through Redis has ended yet. */
    boolean hasRun(String token) {
        return runs.containsKey(token);
    }

    /**
     * Hands the hold's key to a waiter of this instance inside the hold's run, if it may.
     *
     * @param receiverRedisMillis the lease the receiver asks Redis for ({@link #redisMillis})
     * @return the handover, or null if the key must go through Redis
     */
    LocalRun.@Nullable Handover handOver(Hold hold, long receiverRedisMillis) {
        LocalRun run = runs.get(hold.token());
        return run == null || !hold.mayHandOverLocally() ? null : run.handOver(receiverRedisMillis);
    }

    /**
     * Sends, through {@code send}, the release or handover through Redis that ends the run of {@code token}, if it
     * has one; the releases still waiting for the run's confirmation take that command's answer.
     *
     * @param ownership what the answer says of the token's ownership
     * @return the command's answer
     */
    <T> CompletableFuture<T> end(String token, Supplier<CompletableFuture<T>> send, Function<T, Ownership> ownership) {
        LocalRun run = runs.remove(token);
        if (run == null) {
            return send.get();
        }
        CompletableFuture<Ownership> endedWith = new CompletableFuture<>();
        CompletableFuture<Ownership> waiting = run.end(endedWith);
        CompletableFuture<T> answer;
        try {
            answer = send.get();
        } catch (RuntimeException e) {
            endedWith.completeExceptionally(e);
            if (waiting != null) {
                waiting.completeExceptionally(e);
            }
            throw e;
        }
        answer.whenComplete((found, failure) -> {
            if (failure != null) {
                endedWith.completeExceptionally(failure);
            } else {
                endedWith.complete(ownership.apply(found));
            }
        });
        if (waiting != null) {
            endedWith.whenComplete((found, failure) -> {
                if (failure != null) {
                    waiting.completeExceptionally(failure);
                } else {
                    waiting.complete(found);
                }
            });
        }
        return answer;
    }

    /** Forgets the run of a hold nobody will release: its key expires with its lease. */
    void forget(String token) {
        LocalRun run = runs.remove(token);
        if (run != null) {
            run.stop();
        }
    }
}
