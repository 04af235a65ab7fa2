package io.distlock.redis.internal.engine;

import io.distlock.LockLostException.Reason;
import io.distlock.internal.text.PrintableText;
import io.distlock.redis.internal.scripts.LockScripts;
import io.distlock.redis.internal.scripts.ReplicaAcknowledgement;
import io.distlock.redis.internal.scripts.ScriptCall;
import io.distlock.redis.internal.scripts.ScriptRunner;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The typed command layer between {@link io.distlock.redis.RedisLock} and the store: one method per lock operation,
 * each answering a reply that says what happened. {@link SingleNodeCommands} runs each as one script on one Redis;
 * {@link QuorumCommands} runs it on every node of a Redlock group and counts the majority's answers.
 *
 * <p>Each method sends at once and returns a {@link ScriptCall}; the caller decides how long to wait. A call's
 * {@linkplain ScriptCall#sentNanos() send time} is the start from which a lease it confirmed is counted.
 */
public interface LockCommands {

    /**
     * Whether a release may hand the key straight to a waiter of this instance ({@link #handOver}); otherwise waiters
     * take the key only through their own {@link #acquire}.
     */
    boolean handsOver();

    /** The client's command timeout. */
    long commandTimeoutNanos();

    /**
     * How long the answer to a command sent now may take: the command timeout, plus the connect timeout until the
     * store has answered once, since the first command also connects.
     */
    long answerTimeoutNanos();

    /** Whether the store has answered: from then on, commands are sent without connecting first. */
    boolean isConnected();

    /** What an acquisition attempt found. */
    sealed interface Attempted permits Granted, Busy {}

    /** The attempt took the key; its fencing token is greater than every earlier one of the key. */
    record Granted(long fencingToken) implements Attempted {}

    /**
     * Another owner holds the key.
     *
     * @param holderTtlMillis the holder's remaining lease, or -1 if its key has no expiry
     * @param holderDigest the SHA-1 (lowercase hex) of the holder's owner token, as a Redlock node names it ({@link
     *     LockScripts#ACQUIRE_NAMING_HOLDER}); null when not asked for, or when no single token holds the key
     */
    record Busy(long holderTtlMillis, @Nullable String holderDigest) implements Attempted {

        /** Another owner, not named, holds the key. */
        public Busy(long holderTtlMillis) {
            this(holderTtlMillis, null);
        }
    }

    /** Whether a token still owns its key, as a token-checked script found it. */
    enum Ownership {
        OWNED,
        GONE,
        OTHER_OWNER;

        /** Why a hold that found this is lost; only for {@link #GONE} and {@link #OTHER_OWNER}. */
        Reason lossReason() {
            return this == GONE ? Reason.KEY_GONE : Reason.OWNED_BY_OTHER;
        }

        public static Ownership of(long answer) {
            return answer == 1 ? OWNED : answer == 0 ? GONE : OTHER_OWNER;
        }
    }

    /**
     * The answer to a status check.
     *
     * @param remainingMillis the remaining lease, when the token owns the key (0 for a key without expiry)
     */
    record Status(Ownership ownership, long remainingMillis) {}

    /**
     * The answer to a release.
     *
     * @param reservedForOthers whether the key was reserved for other instances' waiters instead of deleted
     * @param readersRemain whether the release was a reader's and other readers still hold the key, so that no waiter
     *     can get further than before
     */
    record Released(Ownership ownership, boolean reservedForOthers, boolean readersRemain) {}

    /**
     * The answer to a handover.
     *
     * @param fencingToken the receiver's fencing token, when the releasing token still owned the key
     * @param othersWait whether waiters of other instances had marked the key
     */
    record HandedOver(Ownership ownership, long fencingToken, boolean othersWait) {}

    /**
     * Tries to take the key. An attempt that fails while {@code willWait} marks the key, so that its release is
     * announced to this instance.
     */
    Attempt acquire(String key, String lockKey, String token, long leaseMillis, boolean willWait);

    /** Confirms that the hold still owns its key, for a nested acquisition, and makes its lease at least this long. */
    ScriptCall<Ownership> confirm(Hold hold, long leaseMillis);

    /** Sets the remaining lease of the hold's key, if it still owns it. */
    ScriptCall<Ownership> extend(Hold hold, long leaseMillis);

    /** Whether the hold still owns its key, and its remaining lease. */
    ScriptCall<Status> status(Hold hold);

    /**
     * Releases the key if the token owns it. With {@code othersFirst}, and another instance waiting, the key is
     * reserved for a moment for the other instances' waiters instead of being deleted.
     */
    ScriptCall<Released> release(String key, String lockKey, String token, boolean othersFirst);

    /**
     * Gives the hold's key straight to a waiter of this instance, whose token and lease are given; only when {@link
     * #handsOver()}.
     */
    ScriptCall<HandedOver> handOver(Hold hold, String receiverToken, long receiverLeaseMillis);

    /**
     * Makes the remaining lease of every hold that still owns its key at least {@code leaseMillis}; the holds must
     * share a cluster slot. The answer has one entry per hold, in order.
     */
    ScriptCall<List<Ownership>> renew(List<Hold> holds, long leaseMillis);

    /**
     * Releases a key nobody holds a handle on; a failure only costs the rest of its lease, so it is logged.
     *
     * @return whether Redis answered the release (one node of a Redlock is enough), whatever it found
     */
    CompletableFuture<Boolean> releaseQuietly(String key, String lockKey, String token);

    /**
     * Like {@link #releaseQuietly}, then runs {@code afterAnswered} if Redis answered the release. Never after one that
     * failed: a release that did not reach Redis freed nothing, and waiters woken by it would try again at once, as
     * fast as Redis refuses them while it is down.
     */
    default void releaseQuietlyThen(String key, String lockKey, String token, Runnable afterAnswered) {
        releaseQuietly(key, lockKey, token).thenAccept(answered -> {
            if (answered) {
                afterAnswered.run();
            }
        });
    }

    /**
     * Runs a granting script, whose answer is the new fencing token (&gt; 0) or -1 minus the holder's remaining lease.
     * With an acknowledgement, a grant counts only once replicas have it.
     */
    static ScriptCall<Attempted> runGranting(
            ScriptRunner runner,
            @Nullable ReplicaAcknowledgement acknowledgement,
            String key,
            RedisScript<Long> script,
            List<String> keys,
            List<String> args) {
        Function<Object, Attempted> decode = value -> {
            long answer = number(value);
            return answer > 0 ? new Granted(answer) : new Busy(-1 - answer);
        };
        return acknowledgement == null
                ? runner.run(key, "acquire", script, keys, args, decode)
                : runner.runAcknowledged(
                        key, "acquire", script, keys, args, value -> number(value) > 0, acknowledgement, decode);
    }

    /**
     * Asks whether the hold's lock key, a string with the owner token, still belongs to it ({@link
     * LockScripts#STATUS}).
     */
    static ScriptCall<Status> status(ScriptRunner runner, Hold hold) {
        return runner.run(
                hold.key(),
                "check",
                LockScripts.STATUS,
                List.of(hold.lockKey()),
                List.of(hold.token()),
                LockCommands::status);
    }

    /** Decodes the answer of {@link LockScripts#STATUS}. */
    static Status status(Object value) {
        long answer = number(value);
        return answer >= 0
                ? new Status(Ownership.OWNED, answer)
                : new Status(answer == -1 ? Ownership.OTHER_OWNER : Ownership.GONE, 0);
    }

    /** A script's text answer, which Lettuce may give as bytes. */
    public static String text(Object answer) {
        return answer instanceof byte[] bytes ? new String(bytes, StandardCharsets.UTF_8) : String.valueOf(answer);
    }

    /** A script's numeric answer. */
    static long number(Object answer) {
        if (!(answer instanceof Number number)) {
            throw new IllegalStateException("expected a number from the script, got " + answer);
        }
        return number.longValue();
    }

    /** An acquisition attempt on its way: the caller either uses its answer or {@linkplain #abandon abandons} it. */
    public final class Attempt {

        private static final Logger log = LoggerFactory.getLogger(Attempt.class);

        private final LockCommands commands;
        private final ScriptCall<Attempted> call;
        private final String key;
        private final String lockKey;
        private final String token;

        public Attempt(LockCommands commands, ScriptCall<Attempted> call, String key, String lockKey, String token) {
            this.commands = commands;
            this.call = call;
            this.key = key;
            this.lockKey = lockKey;
            this.token = token;
        }

        public ScriptCall<Attempted> call() {
            return call;
        }

        public String token() {
            return token;
        }

        /**
         * Gives up an attempt whose answer the caller will not use, so that a lock granted after its caller stopped
         * waiting is freed again. A release with the token is sent at once: on a shared connection Redis runs it after
         * the attempt, even when the attempt's answer never reaches us. Should the answer still come and say granted
         * (the attempt went out on another connection, or was sent again by text after a NOSCRIPT), the key is
         * released once more. Both releases compare the token, so neither can free another owner's lock.
         *
         * @param afterRelease runs after each release that Redis answered ({@link LockCommands#releaseQuietlyThen})
         */
        void abandon(Runnable afterRelease) {
            commands.releaseQuietlyThen(key, lockKey, token, afterRelease);
            call.answer().thenAccept(answer -> {
                if (answer instanceof Granted) {
                    commands.releaseQuietlyThen(key, lockKey, token, afterRelease);
                }
            });
            log.debug("Gave up an attempt on lock '{}'; a release follows it", PrintableText.of(key));
        }
    }
}
