package io.distlock.sample.inventory.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.sample.inventory.InventoryApplication;
import io.distlock.sample.inventory.demo.InventoryClient;
import io.distlock.sample.inventory.redis.FreePorts;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;

/** With its Redis down, the service still answers, with a problem detail that says so. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisUnavailableTest {

    @Test
    void ordersAndReadsAreUnavailableWhileRedisIsDown() throws Exception {
        String nobodyListens = "redis://127.0.0.1:" + FreePorts.next();

        try (ConfigurableApplicationContext app = new SpringApplicationBuilder(InventoryApplication.class)
                .run("--server.port=0", "--spring.data.redis.url=" + nobodyListens)) {
            URI base = URI.create("http://127.0.0.1:"
                    + ((WebServerApplicationContext) app).getWebServer().getPort());
            HttpClient http = InventoryClient.newHttpClient();

            assertUnavailable(http.send(
                    HttpRequest.newBuilder(base.resolve("/orders"))
                            .timeout(Duration.ofSeconds(20))
                            .header("Content-Type", "application/json")
                            .POST(HttpRequest.BodyPublishers.ofString("{\"sku\": \"widget\", \"quantity\": 1}"))
                            .build(),
                    HttpResponse.BodyHandlers.ofString()));
            assertUnavailable(http.send(
                    HttpRequest.newBuilder(base.resolve("/stock/widget"))
                            .timeout(Duration.ofSeconds(20))
                            .build(),
                    HttpResponse.BodyHandlers.ofString()));
        }
    }

    private static void assertUnavailable(HttpResponse<String> answer) {
        assertThat(answer.statusCode()).isEqualTo(503);
        assertThat(answer.headers().firstValue("Content-Type")).hasValue("application/problem+json");
        assertThat(answer.body()).contains("\"type\":\"tag:distlock.io,2026:inventory:redis-unavailable\"");
    }
}
