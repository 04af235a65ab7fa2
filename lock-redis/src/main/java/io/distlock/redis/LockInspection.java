package io.distlock.redis;

import io.distlock.LockBackendException;
import io.distlock.monitor.BackendState;
import io.distlock.monitor.HeldLock;
import io.distlock.monitor.InspectableLock;
import io.distlock.monitor.KeyState;
import io.distlock.monitor.LockKind;
import io.distlock.redis.internal.engine.Hold;
import io.distlock.redis.internal.engine.KeyReading;
import io.distlock.redis.internal.engine.LiveHolds;
import io.distlock.redis.internal.engine.LockCommands;
import io.distlock.redis.internal.engine.SingleNodeCommands;
import io.distlock.redis.internal.pubsub.ReleaseConnection;
import io.distlock.redis.internal.redlock.QuorumCommands;
import io.distlock.redis.internal.scripts.RedisKeys;
import io.distlock.redis.internal.scripts.ScriptCall;
import io.distlock.redis.internal.waiting.WaitingRoom;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * What {@link RedisLock} answers as an {@link InspectableLock}: its holds and waiters from memory, a key's state and a
 * health check from one read-only script that takes nothing.
 */
final class LockInspection implements InspectableLock {

    /** The key the health check reads; nobody locks it, and reading it changes nothing. */
    private static final String PROBE_KEY = "health-probe";

    private final RedisKeys keys;
    private final LockCommands commands;
    private final LiveHolds live;
    private final WaitingRoom waitingRoom;
    private final List<ReleaseConnection> subscriptions;
    private final BooleanSupplier renewersRunning;

    LockInspection(
            RedisKeys keys,
            LockCommands commands,
            LiveHolds live,
            WaitingRoom waitingRoom,
            List<ReleaseConnection> subscriptions,
            BooleanSupplier renewersRunning) {
        this.keys = keys;
        this.commands = commands;
        this.live = live;
        this.waitingRoom = waitingRoom;
        this.subscriptions = subscriptions;
        this.renewersRunning = renewersRunning;
    }

    @Override
    public List<HeldLock> heldLocks() {
        List<Hold> holds = live.snapshot();
        holds.sort(Comparator.comparingLong(Hold::acquiredNanos));
        List<HeldLock> views = new ArrayList<>(holds.size());
        for (Hold hold : holds) {
            views.add(hold.view(hold.kind() == LockKind.PATH ? keys.nameOf(hold.lockKey()) : null));
        }
        return views;
    }

    @Override
    public int heldCount() {
        return live.count();
    }

    @Override
    public Map<String, Integer> waitingThreads() {
        Map<String, Integer> byKey = new LinkedHashMap<>();
        waitingRoom
                .waitingThreads()
                .forEach((lockKey, count) -> byKey.merge(keys.nameOf(lockKey), count, Integer::sum));
        return byKey;
    }

    @Override
    public int waitingCount() {
        int count = 0;
        for (int waiting : waitingRoom.waitingThreads().values()) {
            count += waiting;
        }
        return count;
    }

    @Override
    public KeyState keyState(String key) {
        RedisKeys.validate(key);
        if (!(commands instanceof SingleNodeCommands single)) {
            throw new UnsupportedOperationException("a Redlock cannot tell one key's state: each node has its own copy,"
                    + " and a majority decides; ask the nodes themselves");
        }
        String lockKey = keys.lockKey(key);
        KeyReading reading = single.inspect(key, lockKey).awaitAnswer();
        long remaining = reading.remainingMillis();
        boolean heldHere = live.snapshot().stream()
                .anyMatch(hold -> hold.kind() != LockKind.PATH && hold.lockKey().equals(lockKey));
        boolean held = remaining != -2;
        return new KeyState(
                key,
                held,
                remaining >= 0 ? Duration.ofMillis(remaining) : null,
                heldHere,
                held ? reading.holder() : null,
                held ? reading.since() : null);
    }

    /**
     * {@inheritDoc}
     *
     * <p>One script deletes the key if its fencing counter, which only the key's latest grant set, is the token, and
     * announces the release on the release channel, where the holder's instance hears it. An instance that misses the
     * announcement finds the key gone at its next renewal, extension or release. A Redlock cannot: each node has its
     * own counter.
     */
    @Override
    public boolean releaseForOperator(String key, long fencingToken) {
        RedisKeys.validate(key);
        if (!(commands instanceof SingleNodeCommands single)) {
            throw new UnsupportedOperationException("a Redlock cannot release a key for an operator: each node has its"
                    + " own copy and fencing counter");
        }
        return single.releaseForOperator(key, keys.lockKey(key), fencingToken).awaitAnswer();
    }

    @Override
    public BackendState checkBackend() {
        long start = System.nanoTime();
        String error = commands instanceof QuorumCommands quorum ? probeMajority(quorum) : probe(commands);
        Duration roundTrip = error == null ? Duration.ofNanos(System.nanoTime() - start) : null;
        return new BackendState(error == null, roundTrip, error, renewersRunning.getAsBoolean(), subscription());
    }

    /** Null if the server answered the probe in time; otherwise why not. */
    private @Nullable String probe(LockCommands target) {
        if (!(target instanceof SingleNodeCommands single)) {
            return null;
        }
        try {
            single.inspect(PROBE_KEY, keys.lockKey(PROBE_KEY)).awaitAnswer();
            return null;
        } catch (LockBackendException e) {
            return e.getMessage();
        }
    }

    private @Nullable String probeMajority(QuorumCommands quorum) {
        List<ScriptCall<KeyReading>> calls = quorum.nodes().stream()
                .map(node -> node.inspect(PROBE_KEY, keys.lockKey(PROBE_KEY)))
                .toList();
        int answered = 0;
        String lastError = null;
        for (ScriptCall<KeyReading> call : calls) {
            try {
                call.awaitAnswer();
                answered++;
            } catch (LockBackendException e) {
                lastError = e.getMessage();
            }
        }
        return answered >= quorum.quorum()
                ? null
                : answered + " of " + calls.size() + " nodes answered, and a majority needs " + quorum.quorum()
                        + "; last error: " + lastError;
    }

    /** The worst state among the subscriptions (one per node for a Redlock). */
    private BackendState.Subscription subscription() {
        BackendState.Subscription worst = BackendState.Subscription.SUBSCRIBED;
        for (ReleaseConnection subscription : subscriptions) {
            BackendState.Subscription state = subscription.state(keys.releaseChannel());
            if (state.ordinal() > worst.ordinal()) {
                worst = state;
            }
        }
        return worst;
    }
}
