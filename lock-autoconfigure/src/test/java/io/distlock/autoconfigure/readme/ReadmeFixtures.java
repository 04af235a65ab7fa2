package io.distlock.autoconfigure.readme;

import io.distlock.Lease;
import io.distlock.Lock;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * What the README's examples name without declaring it, as a reader would have it in scope: the injected lock, a
 * lease, the method's parameters, and the application's own methods and types. Every example imports all of it
 * statically ({@link ReadmeSnippets#PRELUDE}); an example's own declarations hide it. Compiled against, never run.
 */
@SuppressWarnings("unused")
public final class ReadmeFixtures {

    /** The injected {@code Lock} bean. */
    public static Lock lock;

    public static Lease lease = Lease.fixed(Duration.ofSeconds(10));

    public static String sku;
    public static int quantity;
    public static String id;
    public static String from;
    public static String to;
    public static long projectId;

    public static StringRedisTemplate stringRedisTemplate;
    public static LettuceConnectionFactory lettuceConnectionFactory;

    private ReadmeFixtures() {}

    public static int readStock(String sku) {
        throw new UnsupportedOperationException();
    }

    public static void writeStock(String sku, int stock) {
        throw new UnsupportedOperationException();
    }

    public static void move(String from, String to, int quantity, long fromToken, long toToken) {
        throw new UnsupportedOperationException();
    }

    public static CompletableFuture<Integer> deductAsync(String sku, int quantity) {
        throw new UnsupportedOperationException();
    }

    /** The application's exception for a stock too low. */
    public static final class OutOfStockException extends RuntimeException {

        private static final long serialVersionUID = 1L;

        public OutOfStockException(String sku) {
            super(sku);
        }
    }

    /** The application's stock record. */
    public record Stock(String sku, int quantity) {}
}
