package io.distlock.redis.internal.engine;

import io.distlock.LockHandle;
import io.distlock.internal.text.PrintableText;
import io.distlock.redis.internal.scripts.OwnerTokens;
import io.distlock.redis.internal.scripts.ScriptCall;
import io.distlock.redis.internal.waiting.Waits;
import io.distlock.spi.KeysAtOnce.Taken;
import io.lettuce.core.cluster.SlotHash;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Takes several keys of one Redis in one script for {@link io.distlock.redis.RedisLock}: on a single server (standalone
 * or Sentinel) any set of keys, on a cluster the keys whose lock keys share a slot. One round trip instead of one per
 * key, and nothing is taken and given back when a key is held, since the script looks at every key before it takes one.
 *
 * <p>Not with replica acknowledgements (a grant of several keys would need a {@code WAIT} of its own), and not for
 * keys a scope of this thread holds, which re-enter one by one.
 */
public final class KeysTogether {

    private static final Logger log = LoggerFactory.getLogger(KeysTogether.class);

    private final LockKit kit;
    private final SingleNodeCommands commands;
    private final boolean clustered;
    private final Consumer<String> released;

    /**
     * @param clustered whether keys are spread over cluster slots
     * @param released tells this instance's waiters that a lock key was released
     */
    public KeysTogether(LockKit kit, SingleNodeCommands commands, boolean clustered, Consumer<String> released) {
        this.kit = kit;
        this.commands = commands;
        this.clustered = clustered;
        this.released = released;
    }

    /**
     * One attempt on every key, waiting for Redis's answer no longer than the client would.
     *
     * @return the handles or the first key held; null if these keys cannot be taken in one script
     */
    @Nullable
    public Taken tryAll(List<String> keys, LeaseAsked lease) {
        List<String> lockKeys = keys.stream().map(kit::lockKey).toList();
        if (clustered
                && lockKeys.stream().mapToInt(SlotHash::getSlot).distinct().count() > 1) {
            return null;
        }
        if (keys.stream().anyMatch(key -> kit.heldInScope(key) != null)) {
            return null;
        }
        List<String> tokens = keys.stream().map(key -> OwnerTokens.newToken()).toList();
        ScriptCall<SingleNodeCommands.TakenTogether> call =
                commands.acquireAll(keys, lockKeys, tokens, lease.storeMillis());
        SingleNodeCommands.TakenTogether answer =
                Waits.answerOnce(call, commands.answerTimeoutNanos(), () -> abandon(call, keys, lockKeys, tokens));
        kit.checkEviction();
        if (answer.busyIndex() >= 0) {
            return Taken.busy(keys.get(answer.busyIndex()));
        }
        List<LockHandle> handles = new ArrayList<>(keys.size());
        for (int i = 0; i < keys.size(); i++) {
            handles.add(kit.holds()
                    .held(
                            keys.get(i),
                            lockKeys.get(i),
                            tokens.get(i),
                            answer.fencingTokens().get(i),
                            lease,
                            call.sentNanos()));
        }
        return Taken.all(handles);
    }

    /**
     * Gives up an attempt whose answer will not be used, as {@link LockCommands.Attempt#abandon} does for one key:
     * every key is released with its token at once, and again should a late answer say they were taken.
     */
    private void abandon(
            ScriptCall<SingleNodeCommands.TakenTogether> call,
            List<String> keys,
            List<String> lockKeys,
            List<String> tokens) {
        releaseAll(keys, lockKeys, tokens);
        call.answer().thenAccept(answer -> {
            if (answer.busyIndex() < 0) {
                releaseAll(keys, lockKeys, tokens);
            }
        });
        log.debug("Gave up an attempt on locks {}; releases follow it", PrintableText.of(keys));
    }

    private void releaseAll(List<String> keys, List<String> lockKeys, List<String> tokens) {
        for (int i = 0; i < keys.size(); i++) {
            String lockKey = lockKeys.get(i);
            commands.releaseQuietlyThen(keys.get(i), lockKey, tokens.get(i), () -> released.accept(lockKey));
        }
    }
}
