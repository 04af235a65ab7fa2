package io.distlock.redis.internal.path;

import io.distlock.redis.internal.engine.Hold;
import io.distlock.redis.internal.engine.LockCommands;
import io.distlock.redis.internal.scripts.ReleaseChannels;
import io.distlock.redis.internal.scripts.ReplicaAcknowledgement;
import io.distlock.redis.internal.scripts.ScriptCall;
import io.distlock.redis.internal.scripts.ScriptRunner;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The {@link LockCommands} of the {@linkplain io.distlock.redis.PathLock path lock} on one Redis: one script of {@link
 * PathScripts} each. A hold's lock key is its path's {@linkplain TreePath#holderKey() holder key}, from which the keys
 * of its ancestors follow, so the holds, renewer and releaser of the exclusive lock serve path holds unchanged over
 * these commands.
 *
 * <p>Releases never hand a path over: waiters of a tree wait for any release in it ({@link #handsOver()} is false),
 * since the hold that kept them out may be an ancestor's or a descendant's.
 */
public final class PathCommands implements LockCommands {

    private static final Logger log = LoggerFactory.getLogger(PathCommands.class);

    private static final String NOT_WAITING = "";

    private final ScriptRunner runner;
    private final ReleaseChannels channels;
    private final String instanceId;
    private final String counterKeep;
    private final @Nullable ReplicaAcknowledgement acknowledgement;
    private final Consumer<String> released;

    /**
     * @param channels where a release announces itself when another instance waits in its tree
     * @param instanceId this lock instance's id, which its waiters' marks and its announcements carry
     * @param counterKeep how long a key's fencing counter outlives its latest grant, in ms, as the scripts' last ARGV
     *     ({@link io.distlock.redis.internal.scripts.FenceFunctions}); {@code "0"} keeps it
     * @param acknowledgement what a grant waits for from replicas, or null to count grants at once
     * @param released told of the {@linkplain TreePath#releaseKey() release key} of each tree in which this instance
     *     released a path, so that its waiters in that tree look again
     */
    public PathCommands(
            ScriptRunner runner,
            ReleaseChannels channels,
            String instanceId,
            String counterKeep,
            @Nullable ReplicaAcknowledgement acknowledgement,
            Consumer<String> released) {
        this.runner = runner;
        this.channels = channels;
        this.instanceId = instanceId;
        this.counterKeep = counterKeep;
        this.acknowledgement = acknowledgement;
        this.released = released;
    }

    @Override
    public boolean handsOver() {
        return false;
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

    /**
     * Tries to take the path whose holder key is {@code lockKey}; see {@link #acquire(String, TreePath, String, long,
     * boolean)}.
     */
    @Override
    public Attempt acquire(String key, String lockKey, String token, long leaseMillis, boolean willWait) {
        return acquire(key, TreePath.ofHolderKey(lockKey), token, leaseMillis, willWait);
    }

    /**
     * Tries to take the path. An attempt that fails while {@code willWait} marks the tree, so that releases in it are
     * announced to this instance.
     */
    public Attempt acquire(String key, TreePath path, String token, long leaseMillis, boolean willWait) {
        List<String> keys = new ArrayList<>(2 * path.depth() + 4);
        keys.add(path.fenceKey());
        keys.add(path.waitersKey());
        for (int depth = 0; depth <= path.depth(); depth++) {
            keys.add(path.holderKey(depth));
        }
        for (int depth = 0; depth <= path.depth(); depth++) {
            keys.add(path.belowKey(depth));
        }
        List<String> args =
                List.of(token, Long.toString(leaseMillis), willWait ? instanceId : NOT_WAITING, counterKeep);
        ScriptCall<Attempted> call =
                LockCommands.runGranting(runner, acknowledgement, key, PathScripts.ACQUIRE, keys, args);
        return new Attempt(this, call, key, path.holderKey(), token);
    }

    /**
     * Makes the lease at least this long, in the holder key and in every ancestor's count, if the hold owns its path.
     */
    @Override
    public ScriptCall<Ownership> confirm(Hold hold, long leaseMillis) {
        return renewal("re-enter", List.of(hold), leaseMillis, found -> found.get(0));
    }

    @Override
    public ScriptCall<Ownership> extend(Hold hold, long leaseMillis) {
        return runner.run(
                hold.key(),
                "extend",
                PathScripts.EXTEND,
                holdKeys(hold),
                List.of(hold.token(), Long.toString(leaseMillis)),
                value -> Ownership.of(number(value)));
    }

    /**
     * Whether the hold still owns its path: its holder key is a plain lock key, so the exclusive lock's check serves.
     */
    @Override
    public ScriptCall<Status> status(Hold hold) {
        return LockCommands.status(runner, hold);
    }

    /** Releases the path; {@code othersFirst} does not apply, since path holds are never handed over. */
    @Override
    public ScriptCall<Released> release(String key, String lockKey, String token, boolean othersFirst) {
        TreePath path = TreePath.ofHolderKey(lockKey);
        String tag = path.releaseKey();
        List<String> keys = new ArrayList<>();
        keys.add(path.waitersKey());
        keys.add(lockKey);
        keys.addAll(path.ancestorBelowKeys());
        ReleaseChannels.Route route = channels.route(tag);
        ScriptCall<Released> call = runner.run(
                key,
                "release",
                route.script(PathScripts.RELEASE, PathScripts.RELEASE_SHARDED),
                keys,
                List.of(token, route.channel(), instanceId, tag),
                value -> new Released(Ownership.of(number(value)), false, false));
        call.answer().whenComplete((answer, error) -> released.accept(tag));
        return call;
    }

    @Override
    public ScriptCall<HandedOver> handOver(Hold hold, String receiverToken, long receiverLeaseMillis) {
        throw new UnsupportedOperationException("paths are never handed over");
    }

    @Override
    public ScriptCall<List<Ownership>> renew(List<Hold> holds, long leaseMillis) {
        return renewal("renew", holds, leaseMillis, found -> found);
    }

    /**
     * Runs {@link PathScripts#RENEW} on the holds, reading each hold's ancestors from its holder key once; the answer
     * has one ownership per hold, in order.
     */
    private <T> ScriptCall<T> renewal(
            String operation, List<Hold> holds, long leaseMillis, Function<List<Ownership>, T> result) {
        List<String> keys = new ArrayList<>();
        List<String> args = new ArrayList<>(2 * holds.size() + 1);
        args.add(Long.toString(leaseMillis));
        for (Hold hold : holds) {
            List<String> below = TreePath.ofHolderKey(hold.lockKey()).ancestorBelowKeys();
            keys.add(hold.lockKey());
            keys.addAll(below);
            args.add(hold.token());
            args.add(Integer.toString(below.size()));
        }
        return runner.run(holds.get(0).key(), operation, PathScripts.RENEW, keys, args, answer -> {
            if (!(answer instanceof List<?> values) || values.size() != holds.size()) {
                throw new IllegalStateException(operation + " of " + holds.size() + " paths answered " + answer);
            }
            return result.apply(
                    values.stream().map(value -> Ownership.of(number(value))).toList());
        });
    }

    @Override
    public CompletableFuture<Boolean> releaseQuietly(String key, String lockKey, String token) {
        return release(key, lockKey, token, false).answer().handle((answer, error) -> {
            if (error != null) {
                log.warn(
                        "Path lock '{}' could not be released; it expires with its lease: {}",
                        key,
                        ScriptCall.unwrap(error).toString());
            }
            return error == null;
        });
    }

    /** The hold's holder key, then the below key of each strict ancestor. */
    private static List<String> holdKeys(Hold hold) {
        List<String> keys = new ArrayList<>();
        keys.add(hold.lockKey());
        keys.addAll(TreePath.ofHolderKey(hold.lockKey()).ancestorBelowKeys());
        return keys;
    }

    private static long number(Object answer) {
        return LockCommands.number(answer);
    }
}
