package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.DistributedLock;
import io.distlock.LockNotAcquiredException;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Flow;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/** Every mistake in a {@code @DistributedLock} fails start-up with a message that names it. */
class DistributedLockStartupCheckTest {

    private final ApplicationContextRunner runner = DistlockContexts.onSharedRedis();

    @Test
    void validAnnotationStarts() {
        runner.withBean(Valid.class).run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void syntaxErrorNamesClassMethodAndExpression() {
        assertStartupFails(
                SyntaxError.class, "SyntaxError.deduct(String)", "'stock:' +", "not a valid SpEL expression");
    }

    @Test
    void unknownParameterNamesTheParameters() {
        assertStartupFails(UnknownParameter.class, "UnknownParameter.deduct(String)", "#skuu", "[sku]");
    }

    @Test
    void positionBeyondTheParametersIsRejected() {
        assertStartupFails(BadPosition.class, "BadPosition.deduct(String)", "#p1", "1 parameter(s)");
    }

    @Test
    void missingBeanIsRejected() {
        assertStartupFails(MissingBean.class, "MissingBean.deduct(String)", "@keyMaker", "no such bean");
    }

    @Test
    void stagesMonosAndFluxesStart() {
        runner.withBean(ReturnsFuture.class)
                .withBean(ReturnsStage.class)
                .withBean(ReturnsMono.class)
                .withBean(ReturnsFlux.class)
                .run(context -> assertThat(context).hasNotFailed());
    }

    @Test
    void deferredResultsThatCannotBeTrackedAreRefusedNamingTheTypeAndWhatIsAllowed() {
        assertStartupFails(
                ReturnsPlainFuture.class,
                "ReturnsPlainFuture.deduct(String)",
                "java.util.concurrent.Future",
                "may return CompletionStage or CompletableFuture, or, with Reactor, Mono or Flux");
        assertStartupFails(
                ReturnsFlowPublisher.class,
                "ReturnsFlowPublisher.deduct(String)",
                "java.util.concurrent.Flow$Publisher",
                "other than Reactor's Mono and Flux");
        assertStartupFails(
                ReturnsOtherPublisher.class,
                "ReturnsOtherPublisher.deduct(String)",
                "OtherPublisher",
                "other than Reactor's Mono and Flux");
        assertStartupFails(
                ReturnsOwnStage.class,
                "ReturnsOwnStage.deduct(String)",
                "OwnStage",
                "a CompletionStage of its own type");
    }

    @Test
    void severalKeysOnAnAsynchronousMethodAreRefusedSayingWhatToDoInstead() {
        assertStartupFails(
                SeveralKeysAsync.class,
                "SeveralKeysAsync.transfer(String, String)",
                "not supported for asynchronous return types yet",
                "Lock.callWithLocks");
    }

    @Test
    void leaseAndWaitOutOfRangeAreRejected() {
        assertStartupFails(ZeroLease.class, "ZeroLease.deduct(String)", "leaseSeconds must be from 1 to 86400", "0");
        assertStartupFails(NegativeWait.class, "NegativeWait.deduct(String)", "waitSeconds must be 0", "-2");
    }

    @Test
    void fallbackMustExistAndFit() {
        assertStartupFails(MissingFallback.class, "MissingFallback.deduct(String)", "\"nope\" was not found");
        assertStartupFails(
                IncompatibleFallback.class, "IncompatibleFallback.deduct(String)", "returns java.lang.String");
    }

    @Test
    void privateMethodsAreRejected() {
        assertStartupFails(PrivateMethod.class, "PrivateMethod.deduct(String)", "private and static methods");
    }

    @Test
    void finalMethodsOfClassProxiesAreRejected() {
        assertStartupFails(FinalMethod.class, "FinalMethod.deduct(String)", "final methods");
    }

    @Test
    void beansLeftUnproxiedAreRejected() {
        runner.withPropertyValues("spring.aop.auto=false")
                .withBean(Valid.class)
                .run(context -> assertThat(context)
                        .getFailure()
                        .hasMessageContaining("was not proxied by distlock")
                        .hasMessageContaining("spring.aop.auto"));
    }

    @Test
    void severalKeysNeedKeysNotACollectionKeyAndNotBoth() {
        assertStartupFails(
                BothKeyAndKeys.class, "BothKeyAndKeys.deduct(String)", "set key or keys, not both", "['b:' + #sku]");
        assertStartupFails(NoKey.class, "key must be a SpEL expression", "or set keys");
        assertStartupFails(
                CollectionKey.class,
                "key \"#skus\" is the List parameter #skus",
                "to take a lock for each element, all or none, write keys = \"#skus\"");
        assertStartupFails(BlankKeysElement.class, "keys[1] must be a SpEL expression");
        assertStartupFails(UnknownParameterInKeys.class, "keys[1] \"'b:' + #skuu\" refers to #skuu");
    }

    private void assertStartupFails(Class<?> bean, String... messageParts) {
        runner.withBean(bean).run(context -> {
            assertThat(context).hasFailed();
            Throwable failure = context.getStartupFailure();
            for (String part : messageParts) {
                assertThat(failure).as(bean.getSimpleName()).hasStackTraceContaining(part);
            }
        });
    }

    public static class BothKeyAndKeys {
        @DistributedLock(key = "'a:' + #sku", keys = "'b:' + #sku")
        public String deduct(String sku) {
            return sku;
        }
    }

    public static class NoKey {
        @DistributedLock
        public String deduct(String sku) {
            return sku;
        }
    }

    public static class CollectionKey {
        @DistributedLock(key = "#skus")
        public List<String> deduct(List<String> skus) {
            return skus;
        }
    }

    public static class BlankKeysElement {
        @DistributedLock(keys = {"'a:' + #sku", " "})
        public String deduct(String sku) {
            return sku;
        }
    }

    public static class UnknownParameterInKeys {
        @DistributedLock(keys = {"'a:' + #sku", "'b:' + #skuu"})
        public String deduct(String sku) {
            return sku;
        }
    }

    public static class Valid {
        @DistributedLock(key = "'stock:' + #sku")
        public String deduct(String sku) {
            return sku;
        }
    }

    public static class SyntaxError {
        @DistributedLock(key = "'stock:' +")
        public String deduct(String sku) {
            return sku;
        }
    }

    public static class UnknownParameter {
        @DistributedLock(key = "'stock:' + #skuu")
        public String deduct(String sku) {
            return sku;
        }
    }

    public static class BadPosition {
        @DistributedLock(key = "'stock:' + #p1")
        public String deduct(String sku) {
            return sku;
        }
    }

    public static class MissingBean {
        @DistributedLock(key = "@keyMaker.make(#sku)")
        public String deduct(String sku) {
            return sku;
        }
    }

    public static class ReturnsFuture {
        @DistributedLock(key = "#sku")
        public CompletableFuture<String> deduct(String sku) {
            return CompletableFuture.completedFuture(sku);
        }
    }

    public static class ReturnsPlainFuture {
        @DistributedLock(key = "#sku")
        public Future<String> deduct(String sku) {
            return CompletableFuture.completedFuture(sku);
        }
    }

    public static class ReturnsMono {
        @DistributedLock(key = "#sku")
        public Mono<String> deduct(String sku) {
            return Mono.just(sku);
        }
    }

    public static class ReturnsFlux {
        @DistributedLock(key = "#sku")
        public Flux<String> deduct(String sku) {
            return Flux.just(sku);
        }
    }

    public static class ReturnsStage {
        @DistributedLock(key = "#sku")
        public CompletionStage<String> deduct(String sku) {
            return CompletableFuture.completedFuture(sku);
        }
    }

    public static class ReturnsFlowPublisher {
        @DistributedLock(key = "#sku")
        public Flow.Publisher<String> deduct(String sku) {
            return subscriber -> {};
        }
    }

    /** A Reactive Streams publisher of another library than Reactor, as RxJava's Flowable is. */
    public interface OtherPublisher extends Publisher<String> {}

    public static class ReturnsOtherPublisher {
        @DistributedLock(key = "#sku")
        public OtherPublisher deduct(String sku) {
            return subscriber -> {};
        }
    }

    public static class OwnStage extends CompletableFuture<String> {}

    public static class ReturnsOwnStage {
        @DistributedLock(key = "#sku")
        public OwnStage deduct(String sku) {
            return new OwnStage();
        }
    }

    public static class SeveralKeysAsync {
        @DistributedLock(keys = {"#from", "#to"})
        public CompletableFuture<String> transfer(String from, String to) {
            return CompletableFuture.completedFuture(from);
        }
    }

    public static class ZeroLease {
        @DistributedLock(key = "#sku", leaseSeconds = 0)
        public String deduct(String sku) {
            return sku;
        }
    }

    public static class NegativeWait {
        @DistributedLock(key = "#sku", waitSeconds = -2)
        public String deduct(String sku) {
            return sku;
        }
    }

    public static class MissingFallback {
        @DistributedLock(key = "#sku", fallback = "nope")
        public String deduct(String sku) {
            return sku;
        }
    }

    public static class IncompatibleFallback {
        @DistributedLock(key = "#sku", fallback = "busy")
        public List<String> deduct(String sku) {
            return List.of(sku);
        }

        public String busy(String sku, LockNotAcquiredException reason) {
            return "busy";
        }
    }

    public static class PrivateMethod {
        @DistributedLock(key = "#sku")
        private String deduct(String sku) {
            return sku;
        }

        public String call(String sku) {
            return deduct(sku);
        }
    }

    public static class FinalMethod {
        @DistributedLock(key = "#sku")
        public final String deduct(String sku) {
            return sku;
        }
    }
}
