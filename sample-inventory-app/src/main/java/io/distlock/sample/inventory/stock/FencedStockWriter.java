package io.distlock.sample.inventory.stock;

import java.util.List;
import java.util.Optional;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;
import org.springframework.stereotype.Component;

/**
 * Reads and writes stock on behalf of a lock holder, refusing a holder whose fencing token is older than one Redis has
 * already seen for the SKU. Redis keeps that highest token next to the stock and checks it in the same script as the
 * write, so a holder whose lease ran out while it was paused cannot overwrite the work of the holder that came after.
 *
 * <p>The read registers the token too. Without that, a stale holder could still write after its successor had read
 * the stock but before the successor wrote, and one of the two deductions would be lost.
 */
@Component
public class FencedStockWriter {

    /** Records the caller's token unless a newer one was seen; returns the highest token seen. */
    private static final RedisScript<Long> ADMIT = new DefaultRedisScript<>("""
            local seen = tonumber(redis.call('GET', KEYS[1]) or '0')
            local token = tonumber(ARGV[1])
            if token < seen then
              return seen
            end
            redis.call('SET', KEYS[1], ARGV[1])
            return token
            """, Long.class);

    /** Sets the stock and records the token unless a newer token was seen; returns the highest token seen. */
    private static final RedisScript<Long> WRITE = new DefaultRedisScript<>("""
            local seen = tonumber(redis.call('GET', KEYS[2]) or '0')
            local token = tonumber(ARGV[2])
            if token < seen then
              return seen
            end
            redis.call('SET', KEYS[1], ARGV[1])
            redis.call('SET', KEYS[2], ARGV[2])
            return token
            """, Long.class);

    private final StringRedisTemplate redis;
    private final StockStore store;

    public FencedStockWriter(StringRedisTemplate redis, StockStore store) {
        this.redis = redis;
        this.store = store;
    }

    /**
     * Reads the stock that the holder of {@code token} is about to change.
     *
     * @return the stock, or empty if the SKU was never stocked
     * @throws StaleWriteRejectedException if a newer holder already read or wrote this SKU
     */
    public Optional<Long> readForUpdate(String sku, long token) {
        Long seen = redis.execute(ADMIT, List.of(StockKeys.fence(sku)), Long.toString(token));
        requireNotStale(sku, token, seen);
        return store.read(sku);
    }

    /**
     * Writes the stock, if no holder newer than {@code token} has touched the SKU.
     *
     * @throws StaleWriteRejectedException if a newer holder already read or wrote this SKU; nothing is written
     */
    public void write(String sku, long stock, long token) {
        Long seen = redis.execute(
                WRITE, List.of(StockKeys.stock(sku), StockKeys.fence(sku)), Long.toString(stock), Long.toString(token));
        requireNotStale(sku, token, seen);
    }

    private static void requireNotStale(String sku, long token, Long seen) {
        if (seen == null || seen != token) {
            throw new StaleWriteRejectedException(sku, token, seen);
        }
    }
}
