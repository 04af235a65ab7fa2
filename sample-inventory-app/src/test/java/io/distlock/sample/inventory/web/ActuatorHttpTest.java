package io.distlock.sample.inventory.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.sample.inventory.InventoryTest;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

/**
 * distlock's endpoint and health contributor over real HTTP, as an operator's tools call them, on the port {@link
 * InventoryTest} starts the application on.
 */
@InventoryTest
class ActuatorHttpTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http =
            HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    private final String key = "actuator:" + UUID.randomUUID();

    @Value("${local.server.port}")
    private int port;

    @Autowired
    private Lock lock;

    @Test
    void endpointListsAHeldLockAndReadsItsKey() throws Exception {
        try (LockHandle held =
                lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(30))).orElseThrow()) {
            String body = get("/actuator/distlock", 200);
            JsonNode locks = JSON.readTree(body);
            JsonNode hold = locks.get("held").get(0);
            assertThat(locks.get("heldCount").asInt()).isEqualTo(1);
            assertThat(hold.get("key").asString()).isEqualTo(key);
            assertThat(hold.get("kind").asString()).isEqualTo("EXCLUSIVE");
            assertThat(hold.get("lease").asString()).isEqualTo("fixed");
            assertThat(hold.get("fencingToken").asLong()).isEqualTo(held.fencingToken());
            assertThat(hold.get("reentrancyDepth").asInt()).isEqualTo(1);
            assertThat(hold.get("thread").asString()).isEqualTo("released from any thread");
            assertThat(body).doesNotContain(held.ownerToken());

            JsonNode state = JSON.readTree(get("/actuator/distlock/" + key, 200));
            assertThat(state.get("key").asString()).isEqualTo(key);
            assertThat(state.get("held").asBoolean()).isTrue();
            assertThat(state.get("heldByThisInstance").asBoolean()).isTrue();
            assertThat(Duration.parse(state.get("remainingLease").asString())).isPositive();
        }
        JsonNode free = JSON.readTree(get("/actuator/distlock/" + key, 200));
        assertThat(free.get("held").asBoolean()).isFalse();
    }

    @Test
    void tooLongKeyIsABadRequest() throws Exception {
        get("/actuator/distlock/" + "k".repeat(Lock.MAX_KEY_LENGTH + 1), 400);
    }

    @Test
    void healthShowsTheLockUpWithDetails() throws Exception {
        JsonNode distlock =
                JSON.readTree(get("/actuator/health", 200)).get("components").get("distlock");
        assertThat(distlock.get("status").asString()).isEqualTo("UP");
        assertThat(distlock.get("details").get("reachable").asBoolean()).isTrue();
        assertThat(distlock.get("details").get("renewer").asString()).isEqualTo("running");
    }

    private String get(String path, int expectedStatus) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(
                HttpRequest.newBuilder(URI.create("http://localhost:" + port + path))
                        .timeout(Duration.ofSeconds(10))
                        .build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode())
                .as("GET %s: %s", path, response.body())
                .isEqualTo(expectedStatus);
        return response.body();
    }
}
