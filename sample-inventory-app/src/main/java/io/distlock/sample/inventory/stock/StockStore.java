package io.distlock.sample.inventory.stock;

import java.util.Optional;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.stereotype.Component;

/**
 * The stock of each SKU in Redis, shared by every instance, read and written with plain GET and SET: the seeds'
 * read-check-write, which is only correct while something keeps two writers from interleaving.
 */
@Component
public class StockStore {

    private final StringRedisTemplate redis;

    public StockStore(StringRedisTemplate redis) {
        this.redis = redis;
    }

    /** The stock of {@code sku}, or empty if the SKU was never stocked. */
    public Optional<Long> read(String sku) {
        return Optional.ofNullable(redis.opsForValue().get(StockKeys.stock(sku)))
                .map(Long::valueOf);
    }

    /** Overwrites the stock without any fencing check; only the unprotected twin writes this way. */
    void overwrite(String sku, long stock) {
        redis.opsForValue().set(StockKeys.stock(sku), Long.toString(stock));
    }
}
