package io.distlock.test.fuzz;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.core.ConditionTimeoutException;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * How a {@link Checker} runs its judgements: a script on the checker's own Redis with the checker's keys and arguments,
 * then whatever the {@link LockView} adds for the section's lock key, run again with a fresh read while the script
 * finds the last one stale; and the early takeovers that only the holder's own clock reveals.
 */
final class Judgements {

    /** What a script answers when the lock view's read is too old to judge by: the lease as read has run out. */
    static final long STALE = -2;

    /**
     * How long after a stale read the checker reads again: a read is stale only in the last 2 ms of the lease it read,
     * so by then that lease has ended, and the key is gone, someone else's, or renewed.
     */
    private static final Duration REREAD_AFTER = Duration.ofMillis(3);

    /**
     * A bound only: reads go on being stale only while renewals keep arriving in a lease's last moment. Longer than a
     * read waits out a failover, so that a re-read sent to a dead master still counts.
     */
    private static final Duration STALE_PATIENCE = Duration.ofSeconds(30);

    private final StringRedisTemplate redis;
    private final CheckerKeys keys;
    private final LockView lockView;

    Judgements(StringRedisTemplate redis, CheckerKeys keys, LockView lockView) {
        this.redis = redis;
        this.keys = keys;
        this.lockView = lockView;
    }

    /**
     * Runs a judgement of {@code section}; a verdict of 0 (the lock was not the holder's) while the lease is certainly
     * still alive by the holder's clock is recorded as taken early, in {@code violationsOf} too, and turned into -1.
     *
     * @param when what the section was doing, for the description of a violation
     * @return the script's verdict: 1 held, 0 not the holder's any more, -1 a violation
     */
    int judge(
            RedisScript<Long> script,
            Section section,
            List<String> checkerKeys,
            List<String> checkerArgs,
            String when,
            String violationsOf) {
        int code = code(run(script, section, checkerKeys, checkerArgs));
        if (code == 0 && section.leaseCertainlyAlive()) {
            takenEarly(section, when, violationsOf);
            return -1;
        }
        return code;
    }

    /** Runs a script of the checker's that needs no read of a lock key. */
    long execute(RedisScript<Long> script, List<String> scriptKeys, String... args) {
        try {
            return code(redis.execute(script, scriptKeys, (Object[]) args));
        } catch (DataAccessException e) {
            throw new Checker.CheckerFailure(e);
        }
    }

    /** The lock key was not the holder's although, by the holder's clock, its lease cannot have run out yet. */
    private void takenEarly(Section section, String when, String violationsOf) {
        try {
            redis.opsForHash().increment(keys.violations(), "taken-early", 1);
            redis.opsForHash().increment(violationsOf, "taken-early", 1);
            redis.opsForList()
                    .rightPush(
                            keys.details(),
                            "taken early: the lock of " + section.id() + " was gone at " + when
                                    + " before its lease could have run out");
        } catch (DataAccessException e) {
            throw new Checker.CheckerFailure(e);
        }
    }

    /**
     * Runs a judgement with the checker's keys and arguments, then whatever the lock view adds; again with a fresh read
     * of the lock key while the script finds the last one stale.
     */
    private Long run(RedisScript<Long> script, Section section, List<String> checkerKeys, List<String> checkerArgs) {
        List<String> scriptKeys = new ArrayList<>(checkerKeys);
        scriptKeys.addAll(lockView.keys(section.lockKey()));
        Long verdict = once(script, section, scriptKeys, checkerArgs);
        if (verdict == null || verdict != STALE) {
            return verdict;
        }
        try {
            return await("a read of " + section.lockKey() + " that its lease's end has not made stale")
                    .atMost(STALE_PATIENCE)
                    .pollDelay(REREAD_AFTER)
                    .pollInterval(REREAD_AFTER)
                    .pollInSameThread()
                    .until(
                            () -> once(script, section, scriptKeys, checkerArgs),
                            again -> again == null || again != STALE);
        } catch (ConditionTimeoutException e) {
            section.unreadable(true);
            throw new LockView.Unreadable(section.lockKey(), e);
        }
    }

    private Long once(RedisScript<Long> script, Section section, List<String> scriptKeys, List<String> checkerArgs) {
        List<String> args = new ArrayList<>(checkerArgs);
        try {
            args.addAll(lockView.args(section.lockKey()));
        } catch (LockView.Unreadable e) {
            section.unreadable(true);
            throw e;
        }
        try {
            return redis.execute(script, scriptKeys, args.toArray());
        } catch (DataAccessException e) {
            throw new Checker.CheckerFailure(e);
        }
    }

    private static int code(Long verdict) {
        if (verdict == null) {
            throw new IllegalStateException("a checker script returned nothing");
        }
        return verdict.intValue();
    }
}
