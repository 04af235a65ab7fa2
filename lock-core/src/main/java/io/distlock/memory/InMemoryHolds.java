package io.distlock.memory;

import io.distlock.internal.path.PathRules;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import org.jspecify.annotations.Nullable;

/**
 * What an {@link InMemoryLeaseStore} has granted and not taken back: each key's exclusive grant, the readers that share
 * a key, the permits of semaphore keys, and the paths held in each tree. Grants whose lease ran out stay until their key is next looked at. Not
 * thread-safe: every method runs under the store's monitor.
 */
final class InMemoryHolds {

    /** How a grant holds its key. */
    enum Side {
        /** The key's only grant: a writer, or the plain lock's holder. */
        KEY,
        /** One of the readers that share the key. */
        READ,
        /** One of a semaphore key's permits. */
        PERMIT,
        /** A path of a tree, whose grants are kept under the tree's name. */
        PATH
    }

    private final Map<String, InMemoryGrant> exclusive = new HashMap<>();
    private final Map<String, List<InMemoryGrant>> readers = new HashMap<>();
    private final Map<String, List<InMemoryGrant>> permits = new HashMap<>();
    private final Map<String, List<InMemoryGrant>> paths = new HashMap<>();

    /** The key's exclusive grant, live or not, if the store still has it. */
    @Nullable
    InMemoryGrant exclusive(String key) {
        return exclusive.get(key);
    }

    /** Whether the key's exclusive grant is live. */
    boolean heldExclusively(String key, long now) {
        InMemoryGrant current = exclusive.get(key);
        return current != null && current.liveAt(now);
    }

    /** How many grants of the side share the key now; those whose lease ran out are dropped here. */
    int shared(Side side, String key, long now) {
        Map<String, List<InMemoryGrant>> bySide = shares(side);
        List<InMemoryGrant> held = bySide.get(key);
        if (held == null) {
            return 0;
        }
        held.removeIf(grant -> !grant.liveAt(now));
        if (held.isEmpty()) {
            bySide.remove(key);
        }
        return held.size();
    }

    /**
     * The monotonic time at which the first lease that keeps the key from a waiter of the side ends: for a writer, the
     * exclusive grant's or the earliest reader's; for a reader, the exclusive grant's; for a permit, the earliest
     * permit's. Called only while such a lease is live.
     */
    long firstLeaseEnd(Side side, String key, long now) {
        long first = now + Long.MAX_VALUE / 2;
        if (side != Side.PERMIT && heldExclusively(key, now)) {
            first = exclusive.get(key).expiresAtNanos();
        }
        if (side != Side.READ) {
            for (InMemoryGrant grant :
                    shares(side == Side.KEY ? Side.READ : Side.PERMIT).getOrDefault(key, List.of())) {
                if (grant.expiresAtNanos() - first < 0) {
                    first = grant.expiresAtNanos();
                }
            }
        }
        return first;
    }

    /** Adds a grant to its side. */
    void add(InMemoryGrant grant) {
        if (grant.side() == Side.KEY) {
            exclusive.put(grant.key(), grant);
        } else {
            shares(grant.side())
                    .computeIfAbsent(grant.key(), any -> new ArrayList<>())
                    .add(grant);
        }
    }

    /** Whether the grant is still held. */
    boolean has(InMemoryGrant grant) {
        if (grant.side() == Side.KEY) {
            return exclusive.get(grant.key()) == grant;
        }
        List<InMemoryGrant> held = shares(grant.side()).get(grant.key());
        return held != null && held.contains(grant);
    }

    /** Takes a grant back; true if it was held. */
    boolean remove(InMemoryGrant grant) {
        if (grant.side() == Side.KEY) {
            return exclusive.remove(grant.key(), grant);
        }
        Map<String, List<InMemoryGrant>> bySide = shares(grant.side());
        List<InMemoryGrant> held = bySide.get(grant.key());
        boolean removed = held != null && held.remove(grant);
        if (removed && held.isEmpty()) {
            bySide.remove(grant.key());
        }
        return removed;
    }

    /** Takes the key's exclusive grant back, whatever owns it; the grant, or null if there was none. */
    @Nullable
    InMemoryGrant removeExclusive(String key) {
        return exclusive.remove(key);
    }

    /**
     * When the first live lease of the tree's paths that conflicts with {@code path} ends, on the monotonic clock: a
     * hold of the path, of an ancestor or of a descendant. Paths whose lease ran out are dropped here. O(paths held in
     * the tree).
     *
     * @return the end, or empty if no live hold conflicts
     */
    OptionalLong firstConflictingPathEnd(String tree, List<String> path, long now) {
        shared(Side.PATH, tree, now);
        long first = 0;
        boolean found = false;
        for (InMemoryGrant grant : paths.getOrDefault(tree, List.of())) {
            List<String> held = grant.path();
            boolean conflicts = PathRules.contains(held, path) || PathRules.contains(path, held);
            if (conflicts && (!found || grant.expiresAtNanos() - first < 0)) {
                first = grant.expiresAtNanos();
                found = true;
            }
        }
        return found ? OptionalLong.of(first) : OptionalLong.empty();
    }

    private Map<String, List<InMemoryGrant>> shares(Side side) {
        return switch (side) {
            case READ -> readers;
            case PERMIT -> permits;
            case PATH -> paths;
            case KEY -> throw new IllegalArgumentException("a key's grant is not shared");
        };
    }
}
