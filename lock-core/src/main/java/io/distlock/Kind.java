package io.distlock;

/**
 * A kind of lock that a {@link Lock} may offer beside its exclusive locks, and the key to look it up with: {@link
 * Lock#kind(Kind)} answers what the lock hands out for it, or nothing where its backend lacks the kind. The
 * annotation's attributes ask for kinds too, and start-up fails if the chosen backend lacks one that an annotated
 * method asks for.
 *
 * <p>Which backends offer which kind is told in the documentation's chapter on lock kinds. A kind's locks keep every
 * promise of {@link Lock}: leases counted by the store, owner-only release, and lost holds reported.
 *
 * @param <V> what a lock hands out for this kind: a {@link Lock} of the same keys, {@link Trees} for path locks, or
 *     {@link Semaphores} for semaphores
 */
public final class Kind<V> {

    /**
     * The fair lock: the same keys, leases and handles, with the waiters of every process served in the order they
     * arrived. {@code @DistributedLock(fair = true)} asks for it.
     */
    public static final Kind<Lock> FAIR = new Kind<>("fair lock", "fair = true");

    /**
     * The read side of the lock's keys: readers share a key, and exclude and are excluded by the lock's own
     * acquisitions, which are the writers. {@code @DistributedLock(read = true)} asks for it.
     */
    public static final Kind<Lock> READ = new Kind<>("read lock", "read = true");

    /**
     * Locks on the paths of named trees: a path conflicts with itself, its ancestors and its descendants, never with
     * its siblings. {@code @DistributedLock(tree = ..., path = ...)} asks for it.
     */
    public static final Kind<Trees> PATH = new Kind<>("path lock", "tree = ..., path = ...");

    /**
     * Semaphores: up to a given number of owners hold a key at once, each with a leased permit ({@link Semaphores}).
     * {@code @DistributedLock(permits = ...)} asks for it.
     */
    public static final Kind<Semaphores> SEMAPHORE = new Kind<>("semaphore", "permits = ...");

    private final String name;
    private final String attribute;

    private Kind(String name, String attribute) {
        this.name = name;
        this.attribute = attribute;
    }

    /**
     * What a lock hands out for this kind.
     *
     * @param lock the lock
     * @return the lock's locks of this kind
     * @throws UnsupportedOperationException naming the kind and the lock, if the lock does not offer the kind
     */
    public V of(Lock lock) {
        return lock.kind(this)
                .orElseThrow(
                        () -> new UnsupportedOperationException(lock.getClass().getSimpleName() + " has no " + name));
    }

    /**
     * How {@code @DistributedLock} asks for this kind, such as {@code "fair = true"}.
     *
     * @return the annotation's attributes
     */
    public String annotationAttributes() {
        return attribute;
    }

    @Override
    public String toString() {
        return name;
    }
}
