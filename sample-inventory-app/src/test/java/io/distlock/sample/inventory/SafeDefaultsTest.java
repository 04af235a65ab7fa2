package io.distlock.sample.inventory;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.distlock.test.redis.TestRedis;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;

/**
 * What a copy of the sample does without the {@code demo} profile, as it would run in production: no endpoint without
 * the lock, Actuator limited to a health status without details, and no Redis of its own.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class SafeDefaultsTest {

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Test
    void withoutTheDemoProfileOnlyTheLockedEndpointsAndABareHealthStatusAreServed() throws Exception {
        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(InventoryApplication.class)
                .run(
                        "--server.port=0",
                        "--server.address=127.0.0.1",
                        "--spring.data.redis.url=" + TestRedis.shared().uri())) {
            int port = app.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
            String order = "{\"sku\": \"" + Skus.unique() + "\", \"quantity\": 1}";

            assertThat(post(port, "/unprotected/orders", order).statusCode()).isEqualTo(404);
            assertThat(post(port, "/orders", order).statusCode()).isEqualTo(400);
            assertThat(get(port, "/actuator/distlock").statusCode()).isEqualTo(404);
            assertThat(get(port, "/actuator/metrics").statusCode()).isEqualTo(404);
            HttpResponse<String> health = get(port, "/actuator/health");
            assertThat(health.statusCode()).isEqualTo(200);
            assertThat(health.body()).contains("\"status\":\"UP\"").doesNotContain("components", "details");
        }
    }

    @Test
    void withoutARedisConfiguredStartUpFailsNamingWhatToSet() {
        Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(InventoryApplication.class)
                .web(WebApplicationType.NONE)
                .run()
                .close());

        assertThat(failure).isNotNull();
        assertThat(rootCause(failure).getMessage())
                .contains("No Redis is configured")
                .contains("spring.data.redis.url")
                .contains("--spring.profiles.active=demo");
    }

    private HttpResponse<String> get(int port, String path) throws IOException, InterruptedException {
        return http.send(request(port, path).GET().build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpResponse<String> post(int port, String path, String json) throws IOException, InterruptedException {
        return http.send(
                request(port, path)
                        .header("Content-Type", "application/json")
                        .POST(HttpRequest.BodyPublishers.ofString(json))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
    }

    private static HttpRequest.Builder request(int port, String path) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10));
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root;
    }
}
