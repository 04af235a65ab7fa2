package io.distlock.test.fuzz;

import java.util.List;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Records critical sections on the paths of a tree in Redis, on a connection of its own, and catches a section inside a
 * path while another is inside the same path, an ancestor or a descendant of it.
 *
 * <p>It knows nothing of how the path lock keeps its paths. Entering, a section claims its canonical path in one hash
 * of the checker's for the whole tree, until 2 ms before the lease of its own lock ends (read with the lock key it
 * holds, as {@link SectionChecker} reads a key's); then, as there:
 *
 * <ul>
 *   <li><b>overlap</b>: a section enters a path while another section's claim on it, on an ancestor or on a
 *       descendant is alive. Every live claim of the tree is compared with the path segment by segment, O(n) per
 *       entry;
 *   <li><b>taken early</b>: a section's lock key is gone or someone else's while its claim is still alive, or while
 *       its lease cannot have run out yet by the holder's own clock;
 *   <li><b>fencing</b>: a section enters with a fencing token not above every token that entered its path, an
 *       ancestor or a descendant before it: the tree has one counter for all its paths, so two sections that conflict
 *       are ordered by their tokens. Checked as sections enter, and again from the list of entries afterwards, in Java
 *       ({@link PathRecords}).
 * </ul>
 *
 * <p>Lost sections are as for keys: no violation, but their holders must be told. Besides violations it counts the
 * sections that entered while others were inside paths apart from theirs, which a lock that serialised the whole tree
 * would never let happen, and the refusals while only an ancestor or descendant was inside, which show that the run
 * did put conflicts across levels to the lock. Refusals while no conflicting section was inside are counted apart: a
 * hold between acquisition and entry or between exit and release refuses briefly, but many of them point to holds
 * that no section has, such as late grants of abandoned attempts that were never freed. The Lua is in {@link PathCheckerScripts}.
 */
final class PathChecker implements Checker {

    private final CheckerKeys keys;
    private final Judgements judgements;
    private final RedisScript<Long> enter;
    private final RedisScript<Long> checkpoint;

    /**
     * A checker that writes its records on {@code redis} and learns the state of each section's own lock key from
     * {@code lockView}.
     */
    PathChecker(StringRedisTemplate redis, CheckerKeys keys, LockView lockView) {
        this.keys = keys;
        this.judgements = new Judgements(redis, keys, lockView);
        this.enter = PathCheckerScripts.enter(lockView);
        this.checkpoint = PathCheckerScripts.checkpoint(lockView);
    }

    @Override
    public void enter(Section section) {
        int code = judgements.judge(
                enter,
                section,
                List.of(
                        keys.pathClaims(PathTree.NAME),
                        keys.pathFences(PathTree.NAME),
                        keys.pathEntries(PathTree.NAME),
                        keys.besideInTree(),
                        keys.violations(),
                        keys.violationsOf(PathTree.NAME),
                        keys.details()),
                List.of(
                        section.handle().ownerToken(),
                        section.id(),
                        Long.toString(section.handle().fencingToken()),
                        path(section)),
                "entry",
                keys.violationsOf(PathTree.NAME));
        section.entered(Entry.of(code));
    }

    /** Counts the refusal if only an ancestor or descendant of the path had a section inside, or if none had. */
    @Override
    public void refused(String key) {
        judgements.execute(
                PathCheckerScripts.REFUSED,
                List.of(keys.pathClaims(PathTree.NAME), keys.refusedByRelatives(), keys.refusedByNoSection()),
                PathKeys.pathOf(key));
    }

    @Override
    public void leave(Section section) {
        judgements.execute(PathCheckerScripts.LEAVE, List.of(keys.pathClaims(PathTree.NAME)), section.id());
    }

    @Override
    public State checkpoint(Section section, String mode) {
        return State.of(judgements.judge(
                checkpoint,
                section,
                List.of(
                        keys.pathClaims(PathTree.NAME),
                        keys.violations(),
                        keys.violationsOf(PathTree.NAME),
                        keys.details(),
                        keys.lapses()),
                List.of(section.handle().ownerToken(), section.id(), mode, path(section)),
                mode,
                keys.violationsOf(PathTree.NAME)));
    }

    /**
     * The canonical path a section holds: of the key its worker asked for, not what the lock made of it; a section of
     * several keys knows its key by its handle only.
     */
    private static String path(Section section) {
        return PathKeys.pathOf(section.key());
    }
}
