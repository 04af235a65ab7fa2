package io.distlock.redis;

import io.distlock.LockLostException.Reason;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The typed command layer between {@link RedisLock} and Redis: one method per script of {@link LockScripts}. It builds
 * the keys and arguments and decodes each script's numeric answer into a reply that says what happened, so nothing
 * above it knows how a script encodes its answer.
 *
 * <p>Each method sends at once and returns a {@link ScriptRunner.Call}; the caller decides how long to wait.
 */
final class LockCommands {

    private static final Logger log = LoggerFactory.getLogger(LockCommands.class);

    /** Sent instead of the instance id by an attempt that will not wait, so a failure marks nothing. */
    private static final String NOT_WAITING = "";

    private static final String NO_RESERVATION = "0";

    private final ScriptRunner runner;
    private final String releaseChannel;
    private final String instanceId;
    private final String othersTurnMillis;
    private final @Nullable ReplicaAcknowledgement acknowledgement;

    /**
     * @param releaseChannel where a release announces itself when another instance waits
     * @param instanceId this lock instance's id, which its waiters' marks and its announcements carry
     * @param othersTurnMillis how long a release that puts other instances first reserves the key for them
     * @param acknowledgement what a grant waits for from replicas, or null to count grants at once
     */
    LockCommands(
            ScriptRunner runner,
            String releaseChannel,
            String instanceId,
            long othersTurnMillis,
            @Nullable ReplicaAcknowledgement acknowledgement) {
        this.runner = runner;
        this.releaseChannel = releaseChannel;
        this.instanceId = instanceId;
        this.othersTurnMillis = Long.toString(othersTurnMillis);
        this.acknowledgement = acknowledgement;
    }

    /**
     * Whether grants wait for replicas. Then only {@link #acquire} grants: a release never hands the key over, since
     * the waiter's own acknowledged acquisition is what makes its grant count.
     */
    boolean acknowledgesGrants() {
        return acknowledgement != null;
    }

    ScriptRunner runner() {
        return runner;
    }

    /** What an acquisition attempt found. */
    sealed interface Attempted permits Granted, Busy {}

    /** The attempt took the key; its fencing token is greater than every earlier one of the key. */
    record Granted(long fencingToken) implements Attempted {}

    /**
     * Another owner holds the key.
     *
     * @param holderTtlMillis the holder's remaining lease, or -1 if its key has no expiry
     */
    record Busy(long holderTtlMillis) implements Attempted {}

    /** Whether a token still owns its key, as a token-checked script found it. */
    enum Ownership {
        OWNED,
        GONE,
        OTHER_OWNER;

        /** Why a hold that found this is lost; only for {@link #GONE} and {@link #OTHER_OWNER}. */
        Reason lossReason() {
            return this == GONE ? Reason.KEY_GONE : Reason.OWNED_BY_OTHER;
        }

        private static Ownership of(long answer) {
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
     */
    record Released(Ownership ownership, boolean reservedForOthers) {}

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
    Attempt acquire(String key, String lockKey, String token, long leaseMillis, boolean willWait) {
        List<String> keys = List.of(lockKey, RedisKeys.fenceKey(lockKey));
        List<String> args = List.of(token, Long.toString(leaseMillis), willWait ? instanceId : NOT_WAITING, instanceId);
        Function<Object, Attempted> decode = value -> {
            long answer = number(value);
            return answer > 0 ? new Granted(answer) : new Busy(-1 - answer);
        };
        ScriptRunner.Call<Attempted> call = acknowledgement == null
                ? runner.run(key, "acquire", LockScripts.ACQUIRE, keys, args, decode)
                : runner.runAcknowledged(
                        key,
                        "acquire",
                        LockScripts.ACQUIRE,
                        keys,
                        args,
                        value -> number(value) > 0,
                        acknowledgement,
                        decode);
        return new Attempt(call, key, lockKey, token);
    }

    /** Confirms that the hold still owns its key, for a nested acquisition, and makes its lease at least this long. */
    ScriptRunner.Call<Ownership> confirm(Hold hold, long leaseMillis) {
        return runner.run(
                hold.key(),
                "re-enter",
                LockScripts.CONFIRM,
                List.of(hold.lockKey()),
                List.of(hold.token(), Long.toString(leaseMillis)),
                value -> Ownership.of(number(value)));
    }

    /** Sets the remaining lease of the hold's key, if it still owns it. */
    ScriptRunner.Call<Ownership> extend(Hold hold, long leaseMillis) {
        return runner.run(
                hold.key(),
                "extend",
                LockScripts.EXTEND,
                List.of(hold.lockKey()),
                List.of(hold.token(), Long.toString(leaseMillis)),
                value -> Ownership.of(number(value)));
    }

    /** Whether the hold still owns its key, and its remaining lease. */
    ScriptRunner.Call<Status> status(Hold hold) {
        return runner.run(
                hold.key(), "check", LockScripts.STATUS, List.of(hold.lockKey()), List.of(hold.token()), value -> {
                    long answer = number(value);
                    return answer >= 0
                            ? new Status(Ownership.OWNED, answer)
                            : new Status(answer == -1 ? Ownership.OTHER_OWNER : Ownership.GONE, 0);
                });
    }

    /**
     * Releases the key if the token owns it. With {@code othersFirst}, and another instance waiting, the key is
     * reserved for a moment for the other instances' waiters instead of being deleted.
     */
    ScriptRunner.Call<Released> release(String key, String lockKey, String token, boolean othersFirst) {
        return runner.run(
                key,
                "release",
                LockScripts.RELEASE,
                List.of(lockKey),
                List.of(token, releaseChannel, instanceId, othersFirst ? othersTurnMillis : NO_RESERVATION),
                value -> {
                    long answer = number(value);
                    return answer == 2
                            ? new Released(Ownership.OWNED, true)
                            : new Released(Ownership.of(answer), false);
                });
    }

    /** Gives the hold's key straight to a waiter of this instance, whose token and lease are given. */
    ScriptRunner.Call<HandedOver> handOver(Hold hold, String receiverToken, long receiverLeaseMillis) {
        return runner.run(
                hold.key(),
                "release",
                LockScripts.HAND_OVER,
                List.of(hold.lockKey(), RedisKeys.fenceKey(hold.lockKey())),
                List.of(hold.token(), receiverToken, Long.toString(receiverLeaseMillis), instanceId),
                value -> {
                    long answer = number(value);
                    return answer > 0
                            ? new HandedOver(Ownership.OWNED, answer / 2, answer % 2 == 1)
                            : new HandedOver(Ownership.of(answer), 0, false);
                });
    }

    /**
     * Makes the remaining lease of every hold that still owns its key at least {@code leaseMillis}; the holds must
     * share a cluster slot. The answer has one entry per hold, in order.
     */
    ScriptRunner.Call<List<Ownership>> renew(List<Hold> holds, long leaseMillis) {
        List<String> keys = new ArrayList<>(holds.size());
        List<String> args = new ArrayList<>(holds.size() + 1);
        args.add(Long.toString(leaseMillis));
        for (Hold hold : holds) {
            keys.add(hold.lockKey());
            args.add(hold.token());
        }
        return runner.run(holds.get(0).key(), "renew", LockScripts.RENEW, keys, args, answer -> {
            if (!(answer instanceof List<?> values) || values.size() != holds.size()) {
                throw new IllegalStateException("renewal of " + holds.size() + " keys answered " + answer);
            }
            return values.stream()
                    .map(value -> Ownership.of(((Number) value).longValue()))
                    .toList();
        });
    }

    /** Releases a key nobody holds a handle on; a failure only costs the rest of its lease, so it is logged. */
    CompletableFuture<Void> releaseQuietly(String key, String lockKey, String token) {
        return release(key, lockKey, token, false).answer().handle((released, error) -> {
            if (error != null) {
                log.warn(
                        "Lock '{}' could not be released; it expires with its lease: {}",
                        key,
                        ScriptRunner.unwrap(error).toString());
            }
            return null;
        });
    }

    private static long number(Object answer) {
        if (!(answer instanceof Number number)) {
            throw new IllegalStateException("expected a number from the script, got " + answer);
        }
        return number.longValue();
    }

    /** An acquisition attempt on its way: the caller either uses its answer or {@linkplain #abandon abandons} it. */
    final class Attempt {

        private final ScriptRunner.Call<Attempted> call;
        private final String key;
        private final String lockKey;
        private final String token;

        private Attempt(ScriptRunner.Call<Attempted> call, String key, String lockKey, String token) {
            this.call = call;
            this.key = key;
            this.lockKey = lockKey;
            this.token = token;
        }

        ScriptRunner.Call<Attempted> call() {
            return call;
        }

        String token() {
            return token;
        }

        /**
         * Gives up an attempt whose answer the caller will not use, so that a lock granted after its caller stopped
         * waiting is freed again. A release with the token is sent at once: on a shared connection Redis runs it after
         * the attempt, even when the attempt's answer never reaches us. Should the answer still come and say granted
         * (the attempt went out on another connection, or was sent again by text after a NOSCRIPT), the key is
         * released once more. Both releases compare the token, so neither can free another owner's lock.
         *
         * @param afterRelease runs after each release was answered or failed
         */
        void abandon(Runnable afterRelease) {
            releaseQuietly(key, lockKey, token).thenRun(afterRelease);
            call.answer().thenAccept(answer -> {
                if (answer instanceof Granted) {
                    releaseQuietly(key, lockKey, token).thenRun(afterRelease);
                }
            });
            log.debug("Gave up an attempt on lock '{}'; a release follows it", key);
        }
    }
}
