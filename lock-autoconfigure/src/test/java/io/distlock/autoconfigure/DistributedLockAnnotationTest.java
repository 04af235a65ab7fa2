package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.LockNotAcquiredException;
import io.distlock.OnLockLost;
import java.time.Duration;
import java.util.List;
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

/**
 * A Spring Boot application with annotated services, configured only through properties: what the annotation does on
 * any backend, shown on the in-memory one.
 */
@SpringBootTest(properties = {"distlock.backend=in-memory", "distlock.default-wait=2s"})
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DistributedLockAnnotationTest {

    @Autowired
    private KeyForms keyForms;

    @Autowired
    private Timing timing;

    @Autowired
    private Outer outer;

    @Autowired
    private Lock lock;

    private final String sku = "sku-" + UUID.randomUUID();

    @Test
    void keyExpressionsSeeParametersByNameAndPositionTheRootAndBeans() {
        assertThat(keyForms.byName(sku)).isEqualTo("stock:" + sku);
        assertThat(keyForms.byProperty(new Order(sku, 42))).isEqualTo("order:" + sku + ":42");
        assertThat(keyForms.byPosition(sku, 7)).isEqualTo("pos:" + sku + ":7");
        assertThat(keyForms.byRoot()).isEqualTo("byRoot:KeyForms");
        assertThat(keyForms.byBean(sku)).isEqualTo("tenant-a:" + sku);
        assertThat(keyForms.literal()).isEqualTo("a literal key");
    }

    @Test
    void nullOrBlankKeyIsAClearErrorAndTheMethodDoesNotRun() {
        int before = keyForms.calls();

        assertThatThrownBy(() -> keyForms.nullable(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("KeyForms.nullable(String)")
                .hasMessageContaining("evaluated to null")
                .hasMessageContaining("#sku")
                .hasMessageContaining("[0: String sku]")
                .hasMessageContaining("their values are not shown");
        assertThatThrownBy(() -> keyForms.nullable("  "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("blank");
        assertThatThrownBy(() -> keyForms.byProperty(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("could not be evaluated");
        assertThat(keyForms.calls()).isEqualTo(before);
    }

    @Test
    void leaseComesFromTheAnnotationOrIsRenewedWhenUnset() {
        assertThat(timing.fixedLease(sku)).isEqualTo(Lease.fixed(Duration.ofSeconds(7)));
        assertThat(timing.defaultLease(sku)).isEqualTo(Lease.renewed());
    }

    @Test
    void zeroWaitFailsAtOnceWithTheKeyAndTheWait() throws Exception {
        try (LockHandle held = holdElsewhere("timing:" + sku)) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> timing.noWait(sku)).isInstanceOfSatisfying(LockNotAcquiredException.class, e -> {
                assertThat(e.key()).isEqualTo("timing:" + sku);
                assertThat(e.waited()).isZero();
            });
            // Far below the 2 s default wait, with room for a busy machine.
            assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofMillis(1500));
            assertThat(timing.runs()).isZero();
        }
    }

    @Test
    void unsetWaitComesFromTheProperties() throws Exception {
        try (LockHandle held = holdElsewhere("timing:" + sku)) {
            long start = System.nanoTime();
            assertThatThrownBy(() -> timing.defaultWait(sku))
                    .isInstanceOfSatisfying(
                            LockNotAcquiredException.class,
                            e -> assertThat(e.waited()).isEqualTo(Duration.ofSeconds(2)));
            // The wait, and no more than its 200 ms grace plus a busy machine's delays; a wait of another length
            // (the annotation's 0, or twice the default) falls outside.
            assertThat(Duration.ofNanos(System.nanoTime() - start))
                    .isBetween(Duration.ofSeconds(2), Duration.ofMillis(3500));
        }
    }

    @Test
    void waitingCallRunsOnceTheHolderReleases() throws Exception {
        LockHandle held = holdElsewhere("timing:" + sku);
        CompletableFuture<String> call = CompletableFuture.supplyAsync(() -> timing.defaultWait(sku));
        Thread.sleep(200);
        assertThat(call).isNotDone();

        held.release();

        assertThat(call.get(5, TimeUnit.SECONDS)).isEqualTo("ran");
    }

    @Test
    void fallbackRunsInsteadWhenTheLockIsBusy() throws Exception {
        try (LockHandle held = holdElsewhere("timing:" + sku)) {
            assertThat(timing.withFallback(sku, 3)).isEqualTo("busy " + sku + " 3");
            assertThat(timing.withFallbackSeeingTheFailure(sku)).isEqualTo("busy: timing:" + sku);
            assertThat(timing.runs()).isZero();
        }
        assertThat(timing.withFallback(sku, 3)).isEqualTo("ran");
    }

    @Test
    void nestedCallsWithTheSameKeyReenterAndDifferentKeysNest() {
        List<String> seen = outer.sameKey(sku);
        assertThat(seen).containsExactly("stock:" + sku, "stock:" + sku);

        List<String> nested = outer.otherKey(sku);
        assertThat(nested).containsExactly("stock:" + sku, "audit:" + sku, "stock:" + sku);
    }

    @Test
    void methodThatOutlivesItsLeaseReportsTheLostLock() throws Exception {
        assertThatThrownBy(() -> timing.slowerThanLease(sku)).isInstanceOfSatisfying(LockLostException.class, e -> {
            assertThat(e.key()).isEqualTo("timing:" + sku);
            assertThat(e.reason()).isEqualTo(LockLostException.Reason.LEASE_EXPIRED);
        });
        assertThat(timing.slowerThanLeaseLogged(sku)).isEqualTo("finished");
    }

    @Test
    void fencingTokenIsVisibleToTheMethodAndGrows() {
        long first = timing.token(sku);
        long second = timing.token(sku);
        assertThat(second).isGreaterThan(first);
    }

    /** Takes the lock on another thread: this thread would re-enter it. */
    private LockHandle holdElsewhere(String key) throws Exception {
        return CompletableFuture.supplyAsync(() -> lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(30)))
                        .orElseThrow())
                .get(5, TimeUnit.SECONDS);
    }

    record Order(String id, int line) {}

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {

        @Bean
        KeyForms keyForms() {
            return new KeyForms();
        }

        @Bean
        Timing timing() {
            return new Timing();
        }

        @Bean
        Inner inner() {
            return new Inner();
        }

        @Bean
        Outer outer(Inner inner) {
            return new Outer(inner);
        }

        @Bean
        KeyNames keyNames() {
            return new KeyNames();
        }
    }

    static class KeyNames {
        public String prefix() {
            return "tenant-a:";
        }
    }

    static class KeyForms {

        private final AtomicInteger calls = new AtomicInteger();

        int calls() {
            return calls.get();
        }

        @DistributedLock(key = "'stock:' + #sku")
        public String byName(String sku) {
            return currentKey();
        }

        @DistributedLock(key = "'order:' + #order.id + ':' + #order.line")
        public String byProperty(Order order) {
            return currentKey();
        }

        @DistributedLock(key = "'pos:' + #p0 + ':' + #a1")
        public String byPosition(String first, int second) {
            return currentKey();
        }

        @DistributedLock(key = "#root.method.name + ':' + #root.targetClass.simpleName")
        public String byRoot() {
            return currentKey();
        }

        @DistributedLock(key = "@keyNames.prefix() + #sku")
        public String byBean(String sku) {
            return currentKey();
        }

        @DistributedLock(key = "'a literal key'")
        public String literal() {
            return currentKey();
        }

        @DistributedLock(key = "#sku")
        public String nullable(String sku) {
            calls.incrementAndGet();
            return currentKey();
        }

        private String currentKey() {
            calls.incrementAndGet();
            return LockContext.current().orElseThrow().key();
        }
    }

    static class Timing {

        private final AtomicInteger runs = new AtomicInteger();

        int runs() {
            return runs.get();
        }

        @DistributedLock(key = "'timing:' + #sku", leaseSeconds = 7)
        public Lease fixedLease(String sku) {
            return LockContext.current().orElseThrow().lease();
        }

        @DistributedLock(key = "'timing:' + #sku")
        public Lease defaultLease(String sku) {
            return LockContext.current().orElseThrow().lease();
        }

        @DistributedLock(key = "'timing:' + #sku", waitSeconds = 0)
        public String noWait(String sku) {
            runs.incrementAndGet();
            return "ran";
        }

        @DistributedLock(key = "'timing:' + #sku")
        public String defaultWait(String sku) {
            return "ran";
        }

        @DistributedLock(key = "'timing:' + #sku", waitSeconds = 0, fallback = "busy")
        public String withFallback(String sku, int quantity) {
            return "ran";
        }

        String busy(String sku, int quantity) {
            return "busy " + sku + " " + quantity;
        }

        @DistributedLock(key = "'timing:' + #sku", waitSeconds = 0, fallback = "busyWithReason")
        public String withFallbackSeeingTheFailure(String sku) {
            runs.incrementAndGet();
            return "ran";
        }

        String busyWithReason(String sku, LockNotAcquiredException reason) {
            return "busy: " + reason.key();
        }

        @DistributedLock(key = "'timing:' + #sku", leaseSeconds = 1)
        public String slowerThanLease(String sku) throws InterruptedException {
            Thread.sleep(1300);
            return "finished";
        }

        @DistributedLock(key = "'timing:' + #sku", leaseSeconds = 1, onLost = OnLockLost.LOG)
        public String slowerThanLeaseLogged(String sku) throws InterruptedException {
            Thread.sleep(1300);
            return "finished";
        }

        @DistributedLock(key = "'timing:' + #sku")
        public long token(String sku) {
            return LockContext.current().orElseThrow().fencingToken();
        }
    }

    static class Outer {

        private final Inner inner;

        Outer(Inner inner) {
            this.inner = inner;
        }

        @DistributedLock(key = "'stock:' + #sku")
        public List<String> sameKey(String sku) {
            return List.of(LockContext.current().orElseThrow().key(), inner.sameKey(sku));
        }

        @DistributedLock(key = "'stock:' + #sku")
        public List<String> otherKey(String sku) {
            String outerKey = LockContext.current().orElseThrow().key();
            String innerKey = inner.otherKey(sku);
            return List.of(
                    outerKey, innerKey, LockContext.current().orElseThrow().key());
        }
    }

    static class Inner {

        @DistributedLock(key = "'stock:' + #sku", waitSeconds = 0)
        public String sameKey(String sku) {
            return LockContext.current().orElseThrow().key();
        }

        @DistributedLock(key = "'audit:' + #sku", waitSeconds = 0)
        public String otherKey(String sku) {
            assertThat(LockContext.current("stock:" + sku)).isPresent();
            return LockContext.current().orElseThrow().key();
        }
    }
}
