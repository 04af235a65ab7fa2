package io.distlock.tck.fuzz;

import java.util.List;
import java.util.SplittableRandom;

/**
 * The keys a run's sections lock, as written to the lock: plain key names shared by all threads ({@link #flat}), or
 * paths of one tree ({@link PathKeys}).
 */
interface KeySpace {

    /** The key of the next section, which {@code operation} takes. */
    String key(Operation operation, SplittableRandom random);

    /** A key to take together with {@code key}, which the lock does not count as the same; {@code key} if there is none. */
    String otherKey(String key, SplittableRandom random);

    /** The key that a handle acquired with {@code key} reports, and {@link io.distlock.LockContext} knows it by. */
    String handleKey(String key);

    /** One of the run's key names as the sections write it to the lock. */
    String written(String name);

    /** Key names that lock only themselves. */
    static KeySpace flat(List<String> names) {
        List<String> keys = List.copyOf(names);
        return new KeySpace() {
            @Override
            public String key(Operation operation, SplittableRandom random) {
                return keys.get(random.nextInt(keys.size()));
            }

            @Override
            public String otherKey(String key, SplittableRandom random) {
                if (keys.size() == 1) {
                    return key;
                }
                int index = keys.indexOf(key);
                return keys.get((index + 1 + random.nextInt(keys.size() - 1)) % keys.size());
            }

            @Override
            public String handleKey(String key) {
                return key;
            }

            @Override
            public String written(String name) {
                return name;
            }
        };
    }
}
