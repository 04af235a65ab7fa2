package io.distlock.autoconfigure.reactive;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.DistributedLock;
import io.distlock.test.redis.TestRedis;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.core.ReactiveStringRedisTemplate;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Mono;

/**
 * The stock deduction of the seeds as a WebFlux endpoint on a real server: concurrent requests deduct exactly under
 * {@code @DistributedLock} on a method that returns a {@link Mono}, whose stock is read and written without blocking;
 * the same endpoint without the annotation loses deductions.
 */
@SpringBootTest(
        webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
        properties = {"spring.main.web-application-type=reactive", "distlock.default-wait=30s"})
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class WebFluxStockTest {

    private static final int STOCK = 100;
    private static final int ORDERS = 40;

    @DynamicPropertySource
    static void redis(DynamicPropertyRegistry registry) {
        registry.add("spring.data.redis.port", () -> TestRedis.shared().port());
    }

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private StringRedisTemplate redis;

    @Test
    void concurrentRequestsDeductExactlyUnderTheAnnotation() throws Exception {
        String sku = "wf-" + UUID.randomUUID();

        List<Integer> statuses = order(sku, "locked");

        assertThat(statuses).containsOnly(200);
        assertThat(stock(sku)).isEqualTo(STOCK - ORDERS);
    }

    @Test
    void theSameRequestsWithoutTheAnnotationLoseDeductions() throws Exception {
        String sku = "wf-" + UUID.randomUUID();

        List<Integer> statuses = order(sku, "unlocked");

        assertThat(statuses).containsOnly(200);
        assertThat(stock(sku)).isGreaterThan(STOCK - ORDERS);
    }

    private List<Integer> order(String sku, String path) throws Exception {
        redis.opsForValue().set(Stock.key(sku), Integer.toString(STOCK));
        List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
        for (int i = 0; i < ORDERS; i++) {
            HttpRequest request = HttpRequest.newBuilder(
                            URI.create("http://localhost:" + port + "/" + path + "/" + sku))
                    .timeout(Duration.ofSeconds(60))
                    .POST(HttpRequest.BodyPublishers.noBody())
                    .build();
            responses.add(http.sendAsync(request, HttpResponse.BodyHandlers.ofString()));
        }
        List<Integer> statuses = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> response : responses) {
            statuses.add(response.get(90, TimeUnit.SECONDS).statusCode());
        }
        return statuses;
    }

    private int stock(String sku) {
        return Integer.parseInt(redis.opsForValue().get(Stock.key(sku)));
    }

    /** Reads the stock, lets other requests run for a moment, and writes it back one lower: a lost update unlocked. */
    static class Stock {

        private final ReactiveStringRedisTemplate redis;

        Stock(ReactiveStringRedisTemplate redis) {
            this.redis = redis;
        }

        static String key(String sku) {
            return "stock:" + sku;
        }

        @DistributedLock(key = "'stock:' + #sku", leaseSeconds = 10)
        public Mono<Integer> deduct(String sku) {
            return deductUnlocked(sku);
        }

        public Mono<Integer> deductUnlocked(String sku) {
            return redis.opsForValue()
                    .get(key(sku))
                    .map(Integer::parseInt)
                    .delayElement(Duration.ofMillis(5))
                    .flatMap(left -> redis.opsForValue()
                            .set(key(sku), Integer.toString(left - 1))
                            .thenReturn(left - 1));
        }
    }

    @RestController
    static class Orders {

        private final Stock stock;

        Orders(Stock stock) {
            this.stock = stock;
        }

        @PostMapping("/locked/{sku}")
        Mono<Integer> locked(@PathVariable String sku) {
            return stock.deduct(sku);
        }

        @PostMapping("/unlocked/{sku}")
        Mono<Integer> unlocked(@PathVariable String sku) {
            return stock.deductUnlocked(sku);
        }
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean
        Stock stock(ReactiveStringRedisTemplate redis) {
            return new Stock(redis);
        }

        @Bean
        Orders orders(Stock stock) {
            return new Orders(stock);
        }
    }
}
