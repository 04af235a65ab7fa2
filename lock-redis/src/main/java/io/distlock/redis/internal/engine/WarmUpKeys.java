package io.distlock.redis.internal.engine;

import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;
import org.springframework.data.redis.connection.ClusterSlotHashUtil;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The keys a lock takes and releases once while the application starts, so that its first caller finds every
 * connection made and every script known: one key on a single server, one per master on a cluster. Their names are
 * fixed ({@value #BASE}, then {@code -1}, {@code -2} and so on where a cluster needs more), so that however often
 * applications start, they leave at most a few fencing counters behind.
 */
public final class WarmUpKeys {

    /** The key taken on a single server, and the start of every key taken on a cluster. */
    public static final String BASE = "distlock-warm-up";

    /** Far more names than it takes to find one in each master's slots, which a few tries do. */
    private static final int NAMES_TRIED = 100_000;

    private WarmUpKeys() {}

    /**
     * Finds the keys that reach every master.
     *
     * @param lockKey turns a key into the Redis key the lock uses, whose slot decides the master
     * @return one key on a single server or Sentinel's primary; on a cluster, one key served by each master, as the
     *     cluster reports its masters now
     */
    public static List<String> reachingEveryMaster(RedisConnectionFactory factory, UnaryOperator<String> lockKey) {
        if (!(factory instanceof LettuceConnectionFactory lettuce) || !lettuce.isClusterAware()) {
            return List.of(BASE);
        }
        List<RedisClusterNode> masters = new ArrayList<>();
        try (RedisClusterConnection connection = lettuce.getClusterConnection()) {
            for (RedisClusterNode node : connection.clusterGetNodes()) {
                if (node.isMaster() && !node.getSlotRange().getSlots().isEmpty()) {
                    masters.add(node);
                }
            }
        }
        List<String> keys = new ArrayList<>();
        for (int n = 0; n < NAMES_TRIED && !masters.isEmpty(); n++) {
            String key = n == 0 ? BASE : BASE + "-" + n;
            int slot = ClusterSlotHashUtil.calculateSlot(lockKey.apply(key));
            if (masters.removeIf(master -> master.servesSlot(slot))) {
                keys.add(key);
            }
        }
        return keys;
    }
}
