package io.distlock.redis.internal.scripts;

import io.lettuce.core.cluster.SlotHash;
import java.util.function.BooleanSupplier;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Where a release of a lock key is announced, and with which command.
 *
 * <p>Classic pub/sub uses the one release channel of the key prefix; a Redis Cluster forwards each {@code PUBLISH} to
 * every other node. Sharded pub/sub (Redis 7, on a cluster) uses the release channel of the key's slot instead, whose
 * {@code SPUBLISH} stays within the shard that serves the key. That channel ends in a hash tag chosen to fall in the
 * key's slot, so that the script holding the key may publish on it, and one channel serves every key of a slot.
 *
 * <p>A lock announces with sharded pub/sub only once its {@link io.distlock.redis.internal.pubsub.ReleaseConnection}
 * found that the cluster takes {@code SSUBSCRIBE}; until then, and on Redis 6.2, it announces the classic way, and its
 * subscription listens on both.
 */
public final class ReleaseChannels {

    private static final String PUBLISH = "redis.call('publish', ";
    private static final String SHARDED_PUBLISH = "redis.call('spublish', ";

    private final String classic;
    /** The route of every classic announcement, made once: {@link #route} runs at every release. */
    private final Route classicRoute;

    private final BooleanSupplier sharded;

    /**
     * @param classic the key prefix's one release channel
     * @param sharded whether releases are announced with sharded pub/sub now
     */
    public ReleaseChannels(String classic, BooleanSupplier sharded) {
        this.classic = classic;
        this.classicRoute = new Route(classic, false);
        this.sharded = sharded;
    }

    /**
     * The channel on which handovers to this instance's waiters are announced: a release channel, a colon and the
     * instance id, so that an announcement reaches only the instance it is for.
     */
    public static String handoverChannel(String releaseChannel, String instanceId) {
        return releaseChannel + ":" + instanceId;
    }

    /** Releases announced the classic way on {@code classic}, always. */
    public static ReleaseChannels classicOnly(String classic) {
        return new ReleaseChannels(classic, () -> false);
    }

    /** Where and how a release of {@code lockKey} (or a path tree's release key) is announced now. */
    public Route route(String lockKey) {
        return sharded.getAsBoolean() ? new Route(shardedChannel(lockKey), true) : classicRoute;
    }

    /** The key prefix's one classic release channel. */
    public String classic() {
        return classic;
    }

    /** The sharded release channel of the slot that {@code lockKey} hashes to. */
    public String shardedChannel(String lockKey) {
        return classic + "{" + SlotTags.BY_SLOT[SlotHash.getSlot(lockKey)] + "}";
    }

    /** The text of a script that announces with {@code SPUBLISH} where {@code text} uses {@code PUBLISH}. */
    public static String shardedText(String text) {
        if (!text.contains(PUBLISH)) {
            throw new IllegalArgumentException("the script does not publish");
        }
        return text.replace(PUBLISH, SHARDED_PUBLISH);
    }

    /**
     * A release announcement's channel and command.
     *
     * @param channel the channel
     * @param sharded whether the announcement goes out with {@code SPUBLISH}
     */
    public record Route(String channel, boolean sharded) {

        /** The variant of a publishing script that fits this route. */
        public <T> RedisScript<T> script(RedisScript<T> classicScript, RedisScript<T> shardedScript) {
            return sharded ? shardedScript : classicScript;
        }
    }

    /** For each cluster slot, the shortest base-36 number that hashes to it; built once, on first use. */
    private static final class SlotTags {

        static final String[] BY_SLOT = build();

        private static String[] build() {
            String[] tags = new String[SlotHash.SLOT_COUNT];
            int missing = tags.length;
            for (int n = 0; missing > 0; n++) {
                String tag = Integer.toString(n, Character.MAX_RADIX);
                int slot = SlotHash.getSlot(tag);
                if (tags[slot] == null) {
                    tags[slot] = tag;
                    missing--;
                }
            }
            return tags;
        }
    }
}
