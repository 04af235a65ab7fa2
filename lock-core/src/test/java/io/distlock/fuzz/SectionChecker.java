package io.distlock.fuzz;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.awaitility.core.ConditionTimeoutException;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Records critical sections in Redis, on a connection of its own, and catches two holders inside at once.
 *
 * <p>Entering, a section <em>claims</em> its lock key: a checker key naming the section, set to expire 2 ms before the
 * lock's own key does (its PTTL, read in the same script on one Redis, or just before from a cluster; see
 * {@link LockView}). The claim is the checker's witness that the section is
 * inside and that its lease has not run out; it never outlives the lease, so a holder whose lease ran out stops
 * counting as inside at the very moment another may legitimately take the lock. Hence:
 *
 * <ul>
 *   <li><b>overlap</b>: a section enters while another section's claim is alive;
 *   <li><b>taken early</b>: a section's lock key is gone or someone else's while its claim is still alive, or while,
 *       by the holder's own clock, less time than the lease has passed since it called for the lock (Redis set the
 *       lease after that call, and leases only grow): the lock was deleted or taken over before its lease ended, which
 *       also catches a lock stolen before its holder could claim it;
 *   <li><b>fencing</b>: a section enters with a fencing token not above every earlier one of that key.
 * </ul>
 *
 * <p>A section whose lock key is not its own any more when it enters or exits, once its lease may have run out, is
 * <em>lost</em>: no violation by itself, but its holder must learn of it, which the worker checks. The lock key is read
 * only to learn the remaining lease and whether it still names the holder's owner token (a prefix match, since
 * RedisLock may append a mark for waiters); every judgement is the checker's. Auto-renewed sections refresh their claim
 * from the lock key's PTTL while they run. Violations are counted by kind, overall and for each key.
 *
 * <p>With a read-write lock, sections are writers or readers ({@link Section#reader()}). Readers may be inside
 * together, each claiming the key until its own lease ends; a writer overlaps any claim, a reader only a writer's. A
 * writer's fencing token must rise above every earlier one, a reader's above the last writer's. The Lua is in
 * {@link CheckerScripts}.
 */
final class SectionChecker {

    /** What the checker saw when a section entered. */
    enum Entry {
        /** The lock key was the holder's; the section claimed it. */
        CLAIMED,
        /** The lock key was not the holder's any more: the lease may have run out between acquisition and entry. */
        NOT_OWNED,
        /** Another section was inside, the fencing token went backwards, or the lock was taken early. */
        VIOLATION
    }

    /** What the checker saw at a checkpoint or exit of a section, from best to worst. */
    enum State {
        /** The lock key is still the holder's. */
        HELD,
        /** The lock key is not the holder's any more, and its claim and lease may have run out. */
        LOST,
        /** The lock key is not the holder's although its lease is certainly still alive. */
        VIOLATION
    }

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
    private final RedisScript<Long> enter;
    private final RedisScript<Long> checkpoint;

    /**
     * A checker that writes its records on {@code redis} and learns the state of each lock key from {@code lockView}.
     */
    SectionChecker(StringRedisTemplate redis, CheckerKeys keys, LockView lockView) {
        this.redis = redis;
        this.keys = keys;
        this.lockView = lockView;
        this.enter = CheckerScripts.enter(lockView);
        this.checkpoint = CheckerScripts.checkpoint(lockView);
    }

    /** Records that the section entered, right after its lock was acquired. */
    void enter(Section section) {
        Long verdict = run(
                enter,
                section,
                List.of(
                        keys.claim(section.key()),
                        keys.readerClaims(section.key()),
                        keys.lastFence(section.key()),
                        keys.lastWriterFence(section.key()),
                        keys.fences(section.key()),
                        keys.readersBesideReaders(),
                        keys.violations(),
                        keys.violationsOf(section.key()),
                        keys.details()),
                List.of(
                        section.handle().ownerToken(),
                        section.id(),
                        Long.toString(section.handle().fencingToken()),
                        role(section)));
        int code = code(verdict);
        if (code == 0 && section.leaseCertainlyAlive()) {
            takenEarly(section, "entry");
            code = -1;
        }
        section.entered(
                switch (code) {
                    case 1 -> Entry.CLAIMED;
                    case 0 -> Entry.NOT_OWNED;
                    default -> Entry.VIOLATION;
                });
    }

    /** Checks, in the middle of a section, that its lock is still its own. */
    void check(Section section) {
        section.checked(checkpoint(section, "check"));
    }

    /** Checks like {@link #check} and extends the claim to the lock's current lease, for auto-renewed sections. */
    void refresh(Section section) {
        section.checked(checkpoint(section, "refresh"));
    }

    /**
     * Records that the section exited, before its lock is released. A section whose lock key could not be read only
     * removes its claim: left behind, the claim would outlive the release and count the next holder as an overlap.
     */
    void exit(Section section) {
        if (!section.unreadable()) {
            try {
                section.checked(checkpoint(section, "exit"));
                return;
            } catch (LockView.Unreadable e) {
                leave(section);
                throw e;
            }
        }
        leave(section);
    }

    private void leave(Section section) {
        try {
            redis.execute(
                    CheckerScripts.LEAVE,
                    List.of(keys.claim(section.key()), keys.readerClaims(section.key())),
                    section.id());
        } catch (DataAccessException e) {
            throw new CheckerFailure(e);
        }
    }

    private State checkpoint(Section section, String mode) {
        Long verdict = run(
                checkpoint,
                section,
                List.of(
                        keys.claim(section.key()),
                        keys.readerClaims(section.key()),
                        keys.violations(),
                        keys.violationsOf(section.key()),
                        keys.details(),
                        keys.lapses()),
                List.of(section.handle().ownerToken(), section.id(), mode, role(section)));
        int code = code(verdict);
        if (code == 0 && section.leaseCertainlyAlive()) {
            takenEarly(section, mode);
            code = -1;
        }
        return switch (code) {
            case 1 -> State.HELD;
            case 0 -> State.LOST;
            default -> State.VIOLATION;
        };
    }

    /** The lock key was not the holder's although, by the holder's clock, its lease cannot have run out yet. */
    private void takenEarly(Section section, String when) {
        try {
            redis.opsForHash().increment(keys.violations(), "taken-early", 1);
            redis.opsForHash().increment(keys.violationsOf(section.key()), "taken-early", 1);
            redis.opsForList()
                    .rightPush(
                            keys.details(),
                            "taken early: the lock of " + section.id() + " was gone at " + when
                                    + " before its lease could have run out");
        } catch (DataAccessException e) {
            throw new CheckerFailure(e);
        }
    }

    /**
     * Runs a judgement with the checker's keys and arguments, then whatever the lock view adds; again with a fresh read
     * of the lock key while the script finds the last one stale.
     */
    private Long run(RedisScript<Long> script, Section section, List<String> checkerKeys, List<String> checkerArgs) {
        List<String> scriptKeys = new ArrayList<>(checkerKeys);
        scriptKeys.addAll(lockView.keys(section.lockKey()));
        Long verdict = judge(script, section, scriptKeys, checkerArgs);
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
                            () -> judge(script, section, scriptKeys, checkerArgs),
                            again -> again == null || again != STALE);
        } catch (ConditionTimeoutException e) {
            section.unreadable(true);
            throw new LockView.Unreadable(section.lockKey(), e);
        }
    }

    private Long judge(RedisScript<Long> script, Section section, List<String> scriptKeys, List<String> checkerArgs) {
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
            throw new CheckerFailure(e);
        }
    }

    private static String role(Section section) {
        return section.reader() ? "r" : "w";
    }

    private static int code(Long verdict) {
        if (verdict == null) {
            throw new IllegalStateException("a checker script returned nothing");
        }
        return verdict.intValue();
    }

    /** The checker could not reach its Redis; its records may miss a section, so the run cannot be trusted. */
    static final class CheckerFailure extends RuntimeException {

        private static final long serialVersionUID = 1L;

        CheckerFailure(Throwable cause) {
            super("the checker's Redis call failed: " + cause.getMessage(), cause);
        }
    }
}
