package io.distlock.tck.fuzz;

/**
 * A critical section as the witness knows it.
 *
 * @param key the key the section locks, as its worker took it (for a path, one of its spellings)
 * @param id names the section in the records ({@link Section#id()})
 * @param ownerToken the owner token of its hold, which the holder of its lock key begins with while it is the section's
 * @param fence its fencing token
 * @param reader whether it holds a read lock, which other readers may hold at once
 */
record Claimant(String key, String id, String ownerToken, long fence, boolean reader) {

    static Claimant of(Section section) {
        return new Claimant(
                section.key(),
                section.id(),
                section.handle().ownerToken(),
                section.handle().fencingToken(),
                section.reader());
    }
}
