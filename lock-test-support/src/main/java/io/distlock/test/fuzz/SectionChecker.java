package io.distlock.test.fuzz;

import java.util.List;
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
 * only to learn the remaining lease and whether it still names the holder's owner token (a prefix match, since a lock
 * may append a mark, as RedisLock does for waiters); every judgement is the checker's. Auto-renewed sections refresh
 * their claim from the lock key's PTTL while they run. Violations are counted by kind, overall and for each key.
 *
 * <p>With a read-write lock, sections are writers or readers ({@link Section#reader()}). Readers may be inside
 * together, each claiming the key until its own lease ends; a writer overlaps any claim, a reader only a writer's. A
 * writer's fencing token must rise above every earlier one, a reader's above the last writer's. The Lua is in
 * {@link CheckerScripts}.
 */
final class SectionChecker implements Checker {

    private final CheckerKeys keys;
    private final Judgements judgements;
    private final RedisScript<Long> enter;
    private final RedisScript<Long> checkpoint;

    /**
     * A checker that writes its records on {@code redis} and learns the state of each lock key from {@code lockView}.
     */
    SectionChecker(StringRedisTemplate redis, CheckerKeys keys, LockView lockView) {
        this.keys = keys;
        this.judgements = new Judgements(redis, keys, lockView);
        this.enter = CheckerScripts.enter(lockView);
        this.checkpoint = CheckerScripts.checkpoint(lockView);
    }

    @Override
    public void enter(Section section) {
        int code = judgements.judge(
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
                        role(section)),
                "entry",
                keys.violationsOf(section.key()));
        section.entered(Entry.of(code));
    }

    @Override
    public void leave(Section section) {
        judgements.execute(
                CheckerScripts.LEAVE,
                List.of(keys.claim(section.key()), keys.readerClaims(section.key())),
                section.id());
    }

    @Override
    public State checkpoint(Section section, String mode) {
        return State.of(judgements.judge(
                checkpoint,
                section,
                List.of(
                        keys.claim(section.key()),
                        keys.readerClaims(section.key()),
                        keys.violations(),
                        keys.violationsOf(section.key()),
                        keys.details(),
                        keys.lapses()),
                List.of(section.handle().ownerToken(), section.id(), mode, role(section)),
                mode,
                keys.violationsOf(section.key())));
    }

    private static String role(Section section) {
        return section.reader() ? "r" : "w";
    }
}
