package io.distlock.sample.inventory.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.put;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.content;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.header;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.jsonPath;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.sample.inventory.InventoryTest;
import io.distlock.sample.inventory.Skus;
import io.distlock.sample.inventory.stock.InventoryService;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.hamcrest.Matchers;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.http.MediaType;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.ResultActions;
import org.springframework.test.web.servlet.request.MockHttpServletRequestBuilder;

/** The HTTP API's answers, against a real Redis: what succeeds, and the problem detail of every refusal. */
@InventoryTest
class InventoryApiTest {

    private static final String TYPE = "tag:distlock.io,2026:inventory:";

    @Autowired
    private MockMvc mvc;

    @Autowired
    private InventoryService inventory;

    @Autowired
    private Lock lock;

    private final String sku = Skus.unique();

    @BeforeEach
    void stockTen() {
        inventory.setStock(sku, 10);
    }

    @Test
    void orderAnswersTheStockLeft() throws Exception {
        mvc.perform(order("/orders", sku, 3))
                .andExpect(status().isOk())
                .andExpect(content().contentType(MediaType.APPLICATION_JSON))
                .andExpect(jsonPath("$.sku").value(sku))
                .andExpect(jsonPath("$.stock").value(7));

        mvc.perform(get("/stock/{sku}", sku))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.stock").value(7));
    }

    @Test
    void unprotectedOrderDeductsToo() throws Exception {
        mvc.perform(order("/unprotected/orders", sku, 4))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.stock").value(6));
    }

    @Test
    void putSetsTheStock() throws Exception {
        mvc.perform(json(put("/stock/{sku}", sku), "{\"quantity\": 0}"))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.stock").value(0));
        mvc.perform(json(put("/stock/{sku}", sku), "{\"quantity\": 25}"))
                .andExpect(jsonPath("$.stock").value(25));

        assertThat(inventory.stock(sku)).contains(25L);
    }

    @ParameterizedTest
    @ValueSource(strings = {"/orders", "/unprotected/orders"})
    void orderForMoreThanTheStockIsAConflictAndDeductsNothing(String path) throws Exception {
        problem(mvc.perform(order(path, sku, 11)), 409, "out-of-stock")
                .andExpect(jsonPath("$.sku").value(sku))
                .andExpect(jsonPath("$.available").value(10))
                .andExpect(jsonPath("$.requested").value(11));

        assertThat(inventory.stock(sku)).contains(10L);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"sku\": \"%s\", \"quantity\": 0}",
                "{\"sku\": \"%s\", \"quantity\": -1}",
                "{\"sku\": \"%s\", \"quantity\": 1000000001}",
                "{\"sku\": \"%s\"}",
                "{\"quantity\": 1}",
                "{\"sku\": \"a b\", \"quantity\": 1}",
                "{\"sku\": \"{%s}\", \"quantity\": 1}",
                "{\"sku\": \"\", \"quantity\": 1}"
            })
    void invalidOrderIsABadRequestAndDeductsNothing(String body) throws Exception {
        for (String path : new String[] {"/orders", "/unprotected/orders"}) {
            problem(mvc.perform(json(post(path), body.formatted(sku))), 400, "invalid-request")
                    .andExpect(jsonPath("$.detail")
                            .value(Matchers.anyOf(
                                    Matchers.containsString("sku"), Matchers.containsString("quantity"))));
        }
        assertThat(inventory.stock(sku)).contains(10L);
    }

    @ParameterizedTest
    @ValueSource(
            strings = {
                "{\"sku\": \"%s\", \"quantity\": 1",
                "{\"sku\": \"%s\", \"quantity\": \"one\"}",
                "{\"sku\": \"%s\", \"quantity\": 1.5}",
                "[\"%s\", 1]",
                "not json %s",
                ""
            })
    void malformedBodyIsABadRequestAndDeductsNothing(String body) throws Exception {
        problem(mvc.perform(json(post("/orders"), body.formatted(sku))), 400, "malformed-body")
                .andExpect(jsonPath("$.detail").value(Matchers.startsWith("Expected a JSON body: ")));

        assertThat(inventory.stock(sku)).contains(10L);
    }

    @Test
    void orderForAnUnknownSkuIsABadRequest() throws Exception {
        String unknown = Skus.unique();

        problem(mvc.perform(order("/orders", unknown, 1)), 400, "unknown-sku")
                .andExpect(jsonPath("$.sku").value(unknown));
        problem(mvc.perform(order("/unprotected/orders", unknown, 1)), 400, "unknown-sku");
        assertThat(inventory.stock(unknown)).isEmpty();
    }

    @Test
    void readingAnUnknownSkuIsNotFound() throws Exception {
        problem(mvc.perform(get("/stock/{sku}", Skus.unique())), 404, "unknown-sku");
    }

    @Test
    void invalidStockIsABadRequest() throws Exception {
        problem(mvc.perform(json(put("/stock/{sku}", sku), "{\"quantity\": -1}")), 400, "invalid-request");
        problem(mvc.perform(json(put("/stock/{sku}", "a{b}"), "{\"quantity\": 1}")), 400, "invalid-request");
        problem(mvc.perform(json(put("/stock/{sku}", sku), "{}")), 400, "invalid-request");

        assertThat(inventory.stock(sku)).contains(10L);
    }

    @Test
    void orderThatFindsTheSkuLockedForTheWholeWaitIsUnavailableWithRetryAfter() throws Exception {
        try (LockHandle held = holdOnAnotherThread("stock:" + sku)) {
            long start = System.nanoTime();

            problem(mvc.perform(order("/orders", sku, 1)), 503, "lock-timeout")
                    .andExpect(header().string("Retry-After", "1"))
                    .andExpect(jsonPath("$.lock").value("stock:" + sku));

            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .isBetween(Duration.ofSeconds(2), Duration.ofSeconds(5));
        }
        assertThat(inventory.stock(sku)).contains(10L);
    }

    @Test
    void transferAnswersBothStocks() throws Exception {
        String other = Skus.unique();
        inventory.setStock(other, 1);

        mvc.perform(transfer(sku, other, 4))
                .andExpect(status().isOk())
                .andExpect(jsonPath("$.from.sku").value(sku))
                .andExpect(jsonPath("$.from.stock").value(6))
                .andExpect(jsonPath("$.to.sku").value(other))
                .andExpect(jsonPath("$.to.stock").value(5));
    }

    @Test
    void transferRefusalsAreProblems() throws Exception {
        String other = Skus.unique();
        inventory.setStock(other, 1);

        problem(mvc.perform(transfer(sku, other, 11)), 409, "out-of-stock");
        problem(mvc.perform(transfer(sku, sku, 1)), 400, "invalid-request");
        problem(mvc.perform(transfer(sku, other, 0)), 400, "invalid-request");
        problem(mvc.perform(transfer(sku, Skus.unique(), 1)), 400, "unknown-sku");
        try (LockHandle held = holdOnAnotherThread("stock:" + other)) {
            problem(mvc.perform(transfer(sku, other, 1)), 503, "lock-timeout")
                    .andExpect(header().string("Retry-After", "1"));
        }
        assertThat(inventory.stock(sku)).contains(10L);
        assertThat(inventory.stock(other)).contains(1L);
    }

    @Test
    void unknownPathIsAProblemToo() throws Exception {
        mvc.perform(get("/no-such-thing"))
                .andExpect(status().isNotFound())
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON));
    }

    private static MockHttpServletRequestBuilder order(String path, String sku, int quantity) {
        return json(post(path), "{\"sku\": \"" + sku + "\", \"quantity\": " + quantity + "}");
    }

    private static MockHttpServletRequestBuilder transfer(String from, String to, int quantity) {
        return json(
                post("/transfers"),
                "{\"from\": \"" + from + "\", \"to\": \"" + to + "\", \"quantity\": " + quantity + "}");
    }

    private static MockHttpServletRequestBuilder json(MockHttpServletRequestBuilder request, String body) {
        return request.contentType(MediaType.APPLICATION_JSON).content(body);
    }

    private static ResultActions problem(ResultActions answer, int status, String type) throws Exception {
        return answer.andExpect(status().is(status))
                .andExpect(content().contentTypeCompatibleWith(MediaType.APPLICATION_PROBLEM_JSON))
                .andExpect(jsonPath("$.status").value(status))
                .andExpect(jsonPath("$.type").value(TYPE + type))
                .andExpect(jsonPath("$.title").isNotEmpty())
                .andExpect(jsonPath("$.detail").isNotEmpty());
    }

    /** Another thread, because this one would re-enter the lock instead of waiting for it. */
    private LockHandle holdOnAnotherThread(String key) throws Exception {
        return CompletableFuture.supplyAsync(() -> lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(30)))
                        .orElseThrow())
                .get(10, TimeUnit.SECONDS);
    }
}
