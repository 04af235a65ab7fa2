package io.distlock.tck.fuzz;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.LongSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The witness's records of a run on the paths of a tree, and its judgements: it catches a section inside a path while
 * another is inside the same path, an ancestor or a descendant of it.
 *
 * <p>It knows nothing of how the path lock keeps its paths. Entering, a section claims its canonical path until 2 ms
 * before the lease of its own lock key, as {@link KeyLedger} claims a key; then, as there:
 *
 * <ul>
 *   <li><b>overlap</b>: a section enters a path while another section's claim on it, on an ancestor or on a
 *       descendant is alive. Every live claim of the tree is compared with the path segment by segment, split on
 *       {@code /} and never by string prefix, which is what the path lock may get wrong; O(n) per entry;
 *   <li><b>taken early</b>: a section's lock key is gone or someone else's while its claim is still alive, or while
 *       its lease cannot have run out yet by the holder's own clock;
 *   <li><b>fencing</b>: a section enters with a fencing token not above every token that entered its path, an
 *       ancestor or a descendant before it: the tree has one counter for all its paths, so two sections that conflict
 *       are ordered by their tokens. Checked as sections enter, and again from the list of entries afterwards
 *       ({@link PathRecords}).
 * </ul>
 *
 * <p>Lost sections are as for keys: no violation, but their holders must be told. Besides violations it counts the
 * sections that entered while others were inside paths apart from theirs, which a lock that serialised the whole tree
 * would never let happen, and the refusals while only an ancestor or descendant was inside, which show that the run
 * did put conflicts across levels to the lock. Refusals while no conflicting section was inside are counted apart: a
 * hold between acquisition and entry or between exit and release refuses briefly, but many of them point to holds
 * that no section has, such as late grants of abandoned attempts that were never freed.
 */
final class PathLedger extends RunLedger {

    private static final String SAME = "the same path";

    /** The live claims of the tree, by section id. */
    private final Map<String, PathClaim> claims = new LinkedHashMap<>();
    /** The highest fencing token that entered each path. */
    private final Map<String, Long> fences = new LinkedHashMap<>();
    /** Every section that entered, in the order they entered. */
    private final List<PathRecords.Entry> entries = new ArrayList<>();

    private long besideInTree;
    private long refusedByRelatives;
    private long refusedByNoSection;

    PathLedger(LongSupplier clock) {
        super(clock);
    }

    @Override
    public synchronized int enter(Claimant section, HolderRead read) {
        LockSight sight = sight(read, section);
        if (sight == null) {
            return STALE;
        }
        if (!sight.mine(section.ownerToken())) {
            return NOT_OWN;
        }
        String path = PathKeys.pathOf(section.key());
        List<String> mine = PathTree.segments(path);
        int verdict = OWN;
        boolean beside = false;
        for (Map.Entry<String, PathClaim> claim : liveClaims(section.id(), sight.at())) {
            String how = relation(mine, PathTree.segments(claim.getValue().path()));
            if (how != null) {
                violation(
                        "overlap",
                        PathTree.NAME,
                        "overlap: " + section.id() + " entered \"" + path + "\" while " + claim.getKey()
                                + " was inside " + how + ", \""
                                + claim.getValue().path() + "\", with lease left");
                verdict = VIOLATION;
            } else {
                beside = true;
            }
        }
        if (beside) {
            besideInTree++;
        }
        long fence = section.fence();
        for (Map.Entry<String, Long> entered : fences.entrySet()) {
            String how = relation(mine, PathTree.segments(entered.getKey()));
            if (how != null && entered.getValue() >= fence) {
                violation(
                        "fencing",
                        PathTree.NAME,
                        "fencing: " + section.id() + " entered \"" + path + "\" after fencing token "
                                + entered.getValue() + " had entered " + how + ", \"" + entered.getKey() + "\"");
                verdict = VIOLATION;
                break;
            }
        }
        if (fence > fences.getOrDefault(path, 0L)) {
            fences.put(path, fence);
        }
        entries.add(new PathRecords.Entry(fence, path));
        claims.put(section.id(), new PathClaim(sight.claimEnd(), path));
        return verdict;
    }

    /**
     * As {@link KeyLedger}'s checkpoint: a live claim whose lock is not the holder's any more was taken early; a claim
     * that ran out while the lock is still the holder's with lease left is a lapse. A renewed section extends its
     * claim, or claims again after a lapse unless a conflicting section is inside by then.
     */
    @Override
    public synchronized int checkpoint(Claimant section, Checkpoint checkpoint, HolderRead read) {
        LockSight sight = sight(read, section);
        if (sight == null) {
            return STALE;
        }
        boolean mine = sight.mine(section.ownerToken());
        String path = PathKeys.pathOf(section.key());
        PathClaim claim = claims.get(section.id());
        boolean claimed = claim != null && claim.end() > sight.at();
        if (claim != null && (checkpoint == Checkpoint.EXIT || !claimed)) {
            claims.remove(section.id());
        }
        if (claimed) {
            if (!mine) {
                violation(
                        "taken-early",
                        PathTree.NAME,
                        "taken early: the lock of " + section.id() + " on \"" + path + "\" was "
                                + (sight.holder() != null ? "taken over" : "deleted") + " before its lease ended");
                return VIOLATION;
            }
        } else if (!mine) {
            return NOT_OWN;
        } else if (sight.outlastsMargin()) {
            lapse();
        }
        if (checkpoint == Checkpoint.REFRESH && sight.outlastsMargin()) {
            if (!claimed) {
                List<String> segments = PathTree.segments(path);
                for (Map.Entry<String, PathClaim> other : liveClaims(section.id(), sight.at())) {
                    if (relation(segments, PathTree.segments(other.getValue().path())) != null) {
                        return OWN;
                    }
                }
            }
            claims.put(section.id(), new PathClaim(sight.claimEnd(), path));
        }
        return OWN;
    }

    @Override
    public synchronized void leave(Claimant section) {
        claims.remove(section.id());
    }

    /**
     * Counts a refused acquisition of the path if a section is inside an ancestor or descendant of it, and none inside
     * the path itself: only a relative can have refused it; or, apart, if no section is inside the path, an ancestor or
     * a descendant: the refusing hold was between acquisition and entry, between exit and release, or held by no
     * section at all.
     */
    @Override
    public synchronized void refused(String key) {
        List<String> mine = PathTree.segments(PathKeys.pathOf(key));
        boolean byRelative = false;
        for (Map.Entry<String, PathClaim> claim : liveClaims("", now())) {
            String how = relation(mine, PathTree.segments(claim.getValue().path()));
            if (SAME.equals(how)) {
                return;
            }
            byRelative |= how != null;
        }
        if (byRelative) {
            refusedByRelatives++;
        } else {
            refusedByNoSection++;
        }
    }

    @Override
    String countedUnder(Claimant section) {
        return PathTree.NAME;
    }

    @Override
    synchronized long sectionsOn(Collection<String> names) {
        Set<String> paths = Set.copyOf(names);
        return entries.stream().filter(entry -> paths.contains(entry.path())).count();
    }

    /** Reads the records back, the tree's as its one key's, with the offline check of {@link PathRecords}. */
    @Override
    synchronized CheckerRecords records(List<String> keyNames) {
        long inversions = PathRecords.fenceInversions(entries);
        Map<String, CheckerRecords.KeyRecords> byTree = Map.of(
                PathTree.NAME,
                new CheckerRecords.KeyRecords(violationsOf(PathTree.NAME), entries.size(), 0, inversions));
        return new CheckerRecords(
                violations(),
                details(),
                entries.size(),
                0,
                0,
                besideInTree,
                refusedByRelatives,
                refusedByNoSection,
                inversions,
                lapses(),
                byTree);
    }

    /**
     * How one path stands to another, both as segments: {@code the same path}, {@code an ancestor} (other above mine)
     * or {@code a descendant}; null if they conflict in no way.
     */
    static @Nullable String relation(List<String> mine, List<String> other) {
        int common = Math.min(mine.size(), other.size());
        if (!mine.subList(0, common).equals(other.subList(0, common))) {
            return null;
        }
        if (other.size() == mine.size()) {
            return SAME;
        }
        return other.size() < mine.size() ? "an ancestor" : "a descendant";
    }

    /** The claims alive at {@code now} but section {@code own}'s, dropping every claim that has ended. */
    private List<Map.Entry<String, PathClaim>> liveClaims(String own, long now) {
        List<Map.Entry<String, PathClaim>> live = new ArrayList<>();
        for (Iterator<Map.Entry<String, PathClaim>> all = claims.entrySet().iterator(); all.hasNext(); ) {
            Map.Entry<String, PathClaim> claim = all.next();
            if (claim.getValue().end() <= now) {
                all.remove();
            } else if (!claim.getKey().equals(own)) {
                live.add(Map.entry(claim.getKey(), claim.getValue()));
            }
        }
        return live;
    }

    /** A section's claim on a path until {@code end}, ms since the epoch. */
    private record PathClaim(long end, String path) {}
}
