package io.distlock.redis.internal.scripts;

import io.distlock.internal.engine.LockArguments;

/**
 * Turns application keys into Redis keys. The prefix and key go inside one hash tag, {@code {prefix+key}}, so a lock
 * and its fencing counter always share a cluster slot; the tag is never empty because the prefix is not.
 */
public final class RedisKeys {

    private static final String FENCE_SUFFIX = ":fence";
    private static final String CHANNEL_SUFFIX = "released";

    private final String prefix;

    public RedisKeys(String prefix) {
        if (prefix == null || prefix.isBlank()) {
            throw new IllegalArgumentException("key prefix must not be blank; the default is \"distlock:\"");
        }
        if (prefix.indexOf('{') >= 0 || prefix.indexOf('}') >= 0) {
            throw new IllegalArgumentException(
                    "key prefix must not contain '{' or '}' (distlock adds its own hash tag), but was \"" + prefix
                            + "\"");
        }
        this.prefix = prefix;
    }

    public String prefix() {
        return prefix;
    }

    /** The channel on which releases are announced; one per prefix, so prefixes never wake each other's waiters. */
    public String releaseChannel() {
        return prefix + CHANNEL_SUFFIX;
    }

    public String lockKey(String key) {
        return "{" + prefix + key + "}";
    }

    /**
     * The application's key in a lock key, or the tree's name in a path lock's key (whose hash tag is the tree's); the
     * lock key itself if it is not one of this prefix's.
     */
    public String nameOf(String lockKey) {
        String start = "{" + prefix;
        int end = lockKey.indexOf('}');
        return lockKey.startsWith(start) && end >= start.length() ? lockKey.substring(start.length(), end) : lockKey;
    }

    public static String fenceKey(String lockKey) {
        return lockKey + FENCE_SUFFIX;
    }

    public static void validate(String key) {
        LockArguments.validateKey(key);
    }
}
