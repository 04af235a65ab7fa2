package io.distlock.redis.internal.engine;

import io.distlock.redis.internal.engine.LockCommands.Ownership;
import io.distlock.redis.internal.scripts.RunScripts;
import io.distlock.redis.internal.scripts.ScriptCall;
import io.distlock.redis.internal.scripts.ScriptRunner;
import java.util.List;

/** The command of a run of local handovers: the confirmation that its owner token still owns the key. */
public final class RunConfirmations {

    private final ScriptRunner runner;
    private final String instanceId;

    /** @param instanceId this lock instance's id, which its own waiters' marks carry */
    public RunConfirmations(ScriptRunner runner, String instanceId) {
        this.runner = runner;
        this.instanceId = instanceId;
    }

    /**
     * What a run's confirmation found.
     *
     * @param othersWait whether waiters of another instance marked the key
     * @param leaseMillis the lease the key was given at least, from the time the confirmation was sent
     */
    record RunConfirmed(Ownership ownership, boolean othersWait, long leaseMillis) {}

    /** Confirms that {@code token} still owns the key, and makes its remaining lease at least {@code leaseMillis}. */
    ScriptCall<RunConfirmed> confirm(String key, String lockKey, String token, long leaseMillis) {
        return runner.run(
                key,
                "confirm",
                RunScripts.CONFIRM,
                List.of(lockKey),
                List.of(token, Long.toString(leaseMillis), instanceId),
                value -> {
                    long answer = LockCommands.number(value);
                    return answer > 0
                            ? new RunConfirmed(Ownership.OWNED, answer == 2, leaseMillis)
                            : new RunConfirmed(Ownership.of(answer), false, leaseMillis);
                });
    }
}
