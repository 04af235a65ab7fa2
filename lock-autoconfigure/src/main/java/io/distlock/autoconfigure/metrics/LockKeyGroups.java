package io.distlock.autoconfigure.metrics;

import io.distlock.monitor.LockKind;

/**
 * Maps lock keys to the few groups that distlock's meters are tagged with. Keys are chosen by the application and can
 * be as many as its orders or products, and a tag per key would give a meter per key; a group such as {@code stock}
 * for every {@code stock:<sku>} keeps the meters few.
 *
 * <p>Define a bean of this type to replace the {@linkplain #byPrefix() default}. It must return few distinct values
 * over the application's life, and must be fast and thread-safe: it runs on every acquisition.
 */
@FunctionalInterface
public interface LockKeyGroups {

    /** The group of keys that have no {@code ':'}, or nothing before it. */
    String UNGROUPED = "ungrouped";

    /**
     * The group of a key.
     *
     * @param key the key the application asked for; for a {@linkplain LockKind#PATH path lock}, the tree's name
     * @param kind the kind of lock
     * @return the group, never null
     */
    String groupOf(String key, LockKind kind);

    /**
     * The default groups: the text before a key's first {@code ':'} ({@code stock} for {@code stock:42}), {@value
     * #UNGROUPED} for a key without one, and a path lock's tree name, since trees are few.
     *
     * @return the default groups
     */
    static LockKeyGroups byPrefix() {
        return (key, kind) -> {
            if (kind == LockKind.PATH) {
                return key;
            }
            int colon = key.indexOf(':');
            return colon > 0 ? key.substring(0, colon) : UNGROUPED;
        };
    }
}
