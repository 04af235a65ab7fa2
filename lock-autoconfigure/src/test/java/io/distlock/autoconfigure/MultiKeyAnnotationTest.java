package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockNotAcquiredException;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Bean;

/** {@code @DistributedLock(keys = ...)}: several keys, taken all or none, on the in-memory backend. */
@SpringBootTest(properties = "distlock.backend=in-memory")
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class MultiKeyAnnotationTest {

    private static final Lease LONG = Lease.fixed(Duration.ofSeconds(30));

    @Autowired
    private Transfers transfers;

    @Autowired
    private Lock lock;

    private final String from = "from-" + UUID.randomUUID();
    private final String to = "to-" + UUID.randomUUID();

    @Test
    void theMethodRunsHoldingEveryKeyAndSeesEachFencingToken() throws Exception {
        Map<String, Long> tokens = transfers.move(from, to);

        assertThat(tokens).containsOnlyKeys("stock:" + from, "stock:" + to);
        assertThat(tokens.values()).allMatch(token -> token > 0);
        assertThat(holdElsewhere("stock:" + from))
                .as("released after the method")
                .isNotNull();
    }

    @Test
    void aCollectionOrArrayGivesAKeyPerElementAndDuplicatesAreTakenOnce() {
        assertThat(transfers.all(List.of(from, to, from), new String[] {"audit:" + from}))
                .containsExactlyInAnyOrder("sku:" + from, "sku:" + to, "audit:" + from);
    }

    @Test
    void oneBusyKeyMeansTheMethodDoesNotRunAndTheOtherKeyIsFree() throws Exception {
        int before = transfers.runs();
        try (LockHandle busy = holdElsewhere("stock:" + to)) {
            assertThatThrownBy(() -> transfers.move(from, to))
                    .isInstanceOfSatisfying(
                            LockNotAcquiredException.class,
                            e -> assertThat(e.getMessage())
                                    .contains("'stock:" + from + "'", "'stock:" + to + "'", "none is held now"));
            assertThat(transfers.withFallback(from, to)).isEqualTo("busy");
            assertThat(transfers.runs()).isEqualTo(before);
            holdElsewhere("stock:" + from).release();
        }
    }

    @Test
    void aKeyThatEvaluatesToACollectionIsAClearErrorAndTheMethodDoesNotRun() {
        int before = transfers.runs();
        assertThatThrownBy(() -> transfers.collectionAsOneKey(List.of(from, to)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("evaluated to a java.util")
                .hasMessageContaining("set keys instead of key");
        assertThatThrownBy(() -> transfers.all(List.of(), new String[0]))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("gave no key at all");
        assertThat(transfers.runs()).isEqualTo(before);
    }

    private LockHandle holdElsewhere(String key) throws Exception {
        return CompletableFuture.supplyAsync(() -> lock.tryAcquire(key, LONG).orElseThrow())
                .get(5, TimeUnit.SECONDS);
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean
        Transfers transfers() {
            return new Transfers();
        }
    }

    static class Transfers {

        private final AtomicInteger runs = new AtomicInteger();

        int runs() {
            return runs.get();
        }

        @DistributedLock(
                keys = {"'stock:' + #to", "'stock:' + #from"},
                waitSeconds = 0)
        public Map<String, Long> move(String from, String to) {
            runs.incrementAndGet();
            String fromKey = "stock:" + from;
            String toKey = "stock:" + to;
            return Map.of(
                    fromKey, LockContext.current(fromKey).orElseThrow().fencingToken(),
                    toKey, LockContext.current(toKey).orElseThrow().fencingToken());
        }

        @DistributedLock(
                keys = {"'stock:' + #from", "'stock:' + #to"},
                waitSeconds = 0,
                fallback = "busy")
        public String withFallback(String from, String to) {
            runs.incrementAndGet();
            return "ran";
        }

        public String busy(String from, String to) {
            return "busy";
        }

        @DistributedLock(keys = {"#skus.![ 'sku:' + #this ]", "#extra"})
        public Set<String> all(List<String> skus, String[] extra) {
            runs.incrementAndGet();
            Set<String> held = new HashSet<>();
            for (String sku : skus) {
                LockContext.current("sku:" + sku).ifPresent(handle -> held.add(handle.key()));
            }
            for (String key : extra) {
                LockContext.current(key).ifPresent(handle -> held.add(handle.key()));
            }
            return held;
        }

        @DistributedLock(key = "#root.args[0]")
        public String collectionAsOneKey(List<String> skus) {
            runs.incrementAndGet();
            return "ran";
        }
    }
}
