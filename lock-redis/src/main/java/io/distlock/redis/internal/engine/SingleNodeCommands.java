package io.distlock.redis.internal.engine;

import io.distlock.redis.internal.scripts.FenceFunctions;
import io.distlock.redis.internal.scripts.InspectionScripts;
import io.distlock.redis.internal.scripts.KeysTogetherScripts;
import io.distlock.redis.internal.scripts.LockScripts;
import io.distlock.redis.internal.scripts.OperatorScripts;
import io.distlock.redis.internal.scripts.ReadScripts;
import io.distlock.redis.internal.scripts.RedisKeys;
import io.distlock.redis.internal.scripts.ReleaseChannels;
import io.distlock.redis.internal.scripts.ReleaseIds;
import io.distlock.redis.internal.scripts.ReplicaAcknowledgement;
import io.distlock.redis.internal.scripts.ScriptCall;
import io.distlock.redis.internal.scripts.ScriptRunner;
import io.distlock.redis.internal.semaphore.SemaphoreScripts;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The {@link LockCommands} of one Redis (a standalone server, a Sentinel-managed primary or a cluster): one script of
 * {@link LockScripts} per command. It builds the keys and arguments and decodes each script's numeric answer into a
 * reply that says what happened, so nothing above it knows how a script encodes its answer.
 */
public final class SingleNodeCommands implements LockCommands {

    private static final Logger log = LoggerFactory.getLogger(SingleNodeCommands.class);

    /** Sent instead of the instance id by an attempt that will not wait, so a failure marks nothing. */
    private static final String NOT_WAITING = "";

    private static final String NO_RESERVATION = "0";

    /** The release id of a release made on this Redis alone: none, so its announcement is what it always was. */
    private static final String NO_RELEASE_ID = "";

    private final ScriptRunner runner;
    private final ReleaseChannels channels;
    private final String instanceId;
    private final String instanceName;
    private final String counterKeep;
    private final String othersTurnMillis;
    private final @Nullable ReplicaAcknowledgement acknowledgement;
    private final String fencesPerGrant;

    /**
     * @param channels where a release announces itself when another instance waits
     * @param instanceId this lock instance's id, which its waiters' marks and its announcements carry
     * @param instanceName the name every hold of this instance is stored with, so that others see who holds a key
     * @param counterKeep how long a key's fencing counter outlives its latest grant, in ms, as the scripts' last ARGV
     *     ({@link FenceFunctions}); {@link FenceFunctions#KEEP_FOR_EVER} keeps it
     * @param othersTurnMillis how long a release that puts other instances first reserves the key for them
     * @param acknowledgement what a grant waits for from replicas, or null to count grants at once
     * @param fencesPerGrant how many fencing tokens an exclusive grant reserves: 1, or {@link LocalHandovers#FENCES}
     */
    public SingleNodeCommands(
            ScriptRunner runner,
            ReleaseChannels channels,
            String instanceId,
            String instanceName,
            String counterKeep,
            long othersTurnMillis,
            @Nullable ReplicaAcknowledgement acknowledgement,
            int fencesPerGrant) {
        this.runner = runner;
        this.channels = channels;
        this.instanceId = instanceId;
        this.instanceName = instanceName;
        this.counterKeep = counterKeep;
        this.othersTurnMillis = Long.toString(othersTurnMillis);
        this.acknowledgement = acknowledgement;
        this.fencesPerGrant = Integer.toString(fencesPerGrant);
    }

    @Override
    public boolean handsOver() {
        return acknowledgement == null;
    }

    @Override
    public long commandTimeoutNanos() {
        return runner.commandTimeoutNanos();
    }

    @Override
    public long answerTimeoutNanos() {
        return runner.answerTimeoutNanos();
    }

    @Override
    public boolean isConnected() {
        return runner.isConnected();
    }

    @Override
    public Attempt acquire(String key, String lockKey, String token, long leaseMillis, boolean willWait) {
        List<String> keys = List.of(lockKey, RedisKeys.fenceKey(lockKey));
        List<String> args = grantArguments(token, leaseMillis, willWait, fencesPerGrant);
        ScriptCall<Attempted> call =
                LockCommands.runGranting(runner, acknowledgement, key, LockScripts.ACQUIRE, keys, args);
        return new Attempt(this, call, key, lockKey, token);
    }

    /**
     * Like {@link #acquire}, for a node of a Redlock: a refusal also names the holder by the digest of its token
     * ({@link LockScripts#ACQUIRE_NAMING_HOLDER}), so that the attempt can tell a split vote among contenders from a
     * key that one owner holds.
     */
    public Attempt acquireNamingHolder(String key, String lockKey, String token, long leaseMillis, boolean willWait) {
        List<String> keys = List.of(lockKey, RedisKeys.fenceKey(lockKey));
        // One fencing token: a Redlock never hands over locally.
        List<String> args = grantArguments(token, leaseMillis, willWait, "1");
        ScriptCall<Attempted> call =
                runner.run(key, "acquire", LockScripts.ACQUIRE_NAMING_HOLDER, keys, args, answer -> {
                    if (!(answer instanceof List<?> values) || values.isEmpty()) {
                        throw new IllegalStateException("expected a list from the acquire script, got " + answer);
                    }
                    long first = number(values.get(0));
                    if (first > 0) {
                        return new Granted(first);
                    }
                    String digest = values.size() > 1 ? String.valueOf(values.get(1)) : "";
                    return new Busy(-1 - first, digest.isEmpty() ? null : digest);
                });
        return new Attempt(this, call, key, lockKey, token);
    }

    /** The ARGV of {@link LockScripts#ACQUIRE} and {@link LockScripts#ACQUIRE_NAMING_HOLDER}. */
    private List<String> grantArguments(String token, long leaseMillis, boolean willWait, String fences) {
        return List.of(
                token,
                Long.toString(leaseMillis),
                willWait ? instanceId : NOT_WAITING,
                instanceId,
                instanceName,
                fences,
                counterKeep);
    }

    /**
     * What an attempt on several keys found.
     *
     * @param fencingTokens the fencing token of each key, in order, when every key was taken
     * @param busyIndex the index of the first key held, or -1 when every key was taken
     */
    record TakenTogether(List<Long> fencingTokens, int busyIndex) {}

    /**
     * Tries once to take every key or none, in one script ({@link KeysTogetherScripts.ACQUIRE_ALL}); the lock keys must share a
     * cluster slot.
     */
    ScriptCall<TakenTogether> acquireAll(
            List<String> keys, List<String> lockKeys, List<String> tokens, long leaseMillis) {
        List<String> scriptKeys = new ArrayList<>(lockKeys.size() * 2);
        for (String lockKey : lockKeys) {
            scriptKeys.add(lockKey);
            scriptKeys.add(RedisKeys.fenceKey(lockKey));
        }
        List<String> args = new ArrayList<>(tokens.size() + 4);
        args.add(Long.toString(leaseMillis));
        args.add(instanceId);
        args.add(instanceName);
        args.addAll(tokens);
        args.add(counterKeep);
        return runner.run(
                String.join(", ", keys), "acquire", KeysTogetherScripts.ACQUIRE_ALL, scriptKeys, args, answer -> {
                    if (!(answer instanceof List<?> values) || values.isEmpty()) {
                        throw new IllegalStateException(
                                "acquiring " + keys.size() + " keys at once answered " + answer);
                    }
                    long first = number(values.get(0));
                    if (first > 0) {
                        return new TakenTogether(List.of(), (int) first - 1);
                    }
                    if (values.size() != keys.size() + 1) {
                        throw new IllegalStateException(
                                "acquiring " + keys.size() + " keys at once answered " + answer);
                    }
                    return new TakenTogether(
                            values.subList(1, values.size()).stream()
                                    .map(SingleNodeCommands::number)
                                    .toList(),
                            -1);
                });
    }

    /**
     * Adds a reader of the lock ({@link ReadScripts#ACQUIRE}).
     *
     * @param yieldToWriters whether a waiting writer keeps this reader out
     */
    public Attempt acquireRead(
            String key, String lockKey, String token, long leaseMillis, boolean willWait, boolean yieldToWriters) {
        return acquireShare(
                ReadScripts.ACQUIRE, key, lockKey, token, leaseMillis, willWait, yieldToWriters ? "1" : "0");
    }

    /**
     * Takes one of a semaphore key's permits ({@link SemaphoreScripts#ACQUIRE}).
     *
     * @param permitsKey the semaphore key's hash of permits
     * @param permits how many may hold the key at once
     */
    public Attempt acquirePermit(
            String key, String permitsKey, String token, long leaseMillis, boolean willWait, int permits) {
        return acquireShare(
                SemaphoreScripts.ACQUIRE, key, permitsKey, token, leaseMillis, willWait, Integer.toString(permits));
    }

    /** Runs a script that adds a share (a reader, a permit) to a hash key, whose fourth argument is its own. */
    private Attempt acquireShare(
            RedisScript<Long> script,
            String key,
            String lockKey,
            String token,
            long leaseMillis,
            boolean willWait,
            String kindArgument) {
        ScriptCall<Attempted> call = LockCommands.runGranting(
                runner,
                null,
                key,
                script,
                List.of(lockKey, RedisKeys.fenceKey(lockKey)),
                List.of(
                        token,
                        Long.toString(leaseMillis),
                        willWait ? instanceId : NOT_WAITING,
                        kindArgument,
                        counterKeep));
        return new Attempt(this, call, key, lockKey, token);
    }

    @Override
    public ScriptCall<Ownership> confirm(Hold hold, long leaseMillis) {
        return runner.run(
                hold.key(),
                "re-enter",
                LockScripts.CONFIRM,
                List.of(hold.lockKey()),
                List.of(hold.token(), Long.toString(leaseMillis)),
                value -> Ownership.of(number(value)));
    }

    @Override
    public ScriptCall<Ownership> extend(Hold hold, long leaseMillis) {
        return runner.run(
                hold.key(),
                "extend",
                LockScripts.EXTEND,
                List.of(hold.lockKey()),
                List.of(hold.token(), Long.toString(leaseMillis)),
                value -> Ownership.of(number(value)));
    }

    /** Reads how a lock key stands, changing nothing. */
    public ScriptCall<KeyReading> inspect(String key, String lockKey) {
        return runner.run(key, "inspect", InspectionScripts.KEY_STATE, List.of(lockKey), List.of(), KeyReading::of);
    }

    /**
     * Releases the key for an operator if its hold has this fencing token, and announces it so that the holder's
     * instance reports the hold lost ({@link OperatorScripts#OPERATOR_RELEASE}).
     */
    public ScriptCall<Boolean> releaseForOperator(String key, String lockKey, long fencingToken) {
        ReleaseChannels.Route route = channels.route(lockKey);
        return runner.run(
                key,
                "release for an operator",
                route.script(OperatorScripts.OPERATOR_RELEASE, OperatorScripts.OPERATOR_RELEASE_SHARDED),
                List.of(lockKey, RedisKeys.fenceKey(lockKey)),
                List.of(Long.toString(fencingToken), route.channel(), ReleaseIds.OPERATOR),
                value -> number(value) == 1);
    }

    @Override
    public ScriptCall<Status> status(Hold hold) {
        return LockCommands.status(runner, hold);
    }

    @Override
    public ScriptCall<Released> release(String key, String lockKey, String token, boolean othersFirst) {
        return release(key, lockKey, token, othersFirst, NO_RELEASE_ID);
    }

    /**
     * Like {@link #release(String, String, String, boolean)}, announcing the release under {@code releaseId} (see
     * {@link LockScripts#RELEASE}), so that the same release made on several nodes wakes waiters once.
     */
    public ScriptCall<Released> release(
            String key, String lockKey, String token, boolean othersFirst, String releaseId) {
        ReleaseChannels.Route route = channels.route(lockKey);
        return runner.run(
                key,
                "release",
                route.script(LockScripts.RELEASE, LockScripts.RELEASE_SHARDED),
                List.of(lockKey),
                List.of(token, route.channel(), instanceId, othersFirst ? othersTurnMillis : NO_RESERVATION, releaseId),
                value -> {
                    long answer = number(value);
                    if (answer == 2 || answer == 3) {
                        return new Released(Ownership.OWNED, answer == 2, answer == 3);
                    }
                    return new Released(Ownership.of(answer), false, false);
                });
    }

    @Override
    public ScriptCall<HandedOver> handOver(Hold hold, String receiverToken, long receiverLeaseMillis) {
        return runner.run(
                hold.key(),
                "release",
                LockScripts.HAND_OVER,
                List.of(hold.lockKey(), RedisKeys.fenceKey(hold.lockKey())),
                List.of(
                        hold.token(),
                        receiverToken,
                        Long.toString(receiverLeaseMillis),
                        instanceId,
                        instanceName,
                        fencesPerGrant,
                        counterKeep),
                value -> {
                    long answer = number(value);
                    return answer > 0
                            ? new HandedOver(Ownership.OWNED, answer / 2, answer % 2 == 1)
                            : new HandedOver(Ownership.of(answer), 0, false);
                });
    }

    @Override
    public ScriptCall<List<Ownership>> renew(List<Hold> holds, long leaseMillis) {
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

    /**
     * Raises the key's fencing counter to at least {@code fencingToken}, if the token still owns the key: a Redlock
     * grant's token then bounds every later grant on this node from below.
     */
    public ScriptCall<Ownership> raiseFence(String key, String lockKey, String token, long fencingToken) {
        return runner.run(
                key,
                "acquire",
                LockScripts.RAISE_FENCE,
                List.of(lockKey, RedisKeys.fenceKey(lockKey)),
                List.of(token, Long.toString(fencingToken)),
                value -> Ownership.of(number(value)));
    }

    @Override
    public CompletableFuture<Boolean> releaseQuietly(String key, String lockKey, String token) {
        return release(key, lockKey, token, false).answer().handle((released, error) -> {
            if (error != null) {
                log.warn(
                        "Lock '{}' could not be released; it expires with its lease: {}",
                        key,
                        ScriptCall.unwrap(error).toString());
            }
            return error == null;
        });
    }

    /**
     * Releases, for a Redlock, a key nobody holds a handle on, announcing the release under {@code releaseId}. A
     * failure is logged at debug level only: a node of a Redlock may be down, and the others decide without it.
     */
    public CompletableFuture<Boolean> releaseQuietly(String key, String lockKey, String token, String releaseId) {
        return release(key, lockKey, token, false, releaseId).answer().handle((released, error) -> {
            if (error != null) {
                log.debug(
                        "Lock '{}' could not be released on one Redlock node; it expires there with its lease: {}",
                        key,
                        ScriptCall.unwrap(error).toString());
            }
            return error == null;
        });
    }

    private static long number(Object answer) {
        return LockCommands.number(answer);
    }
}
