package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

/**
 * Annotated methods that implement a generic interface with concrete types: calls through the interface arrive at a
 * compiler-generated bridge method, and both JDK interface proxies and class proxies must lock them, whether the
 * annotation sits on the implementation or on the interface.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GenericInterfaceTest {

    private static final Lease SHORT = Lease.fixed(Duration.ofSeconds(5));

    @ParameterizedTest(name = "interface proxy: {0}")
    @ValueSource(booleans = {true, false})
    void callThroughTheInterfaceHoldsTheLockAgainstASecondHolder(boolean interfaceProxy) {
        runner(interfaceProxy).withBean(Handler.class, OrderHandler::new).run(context -> {
            assertThat(context).hasNotFailed();
            Handler<Order> handler = handler(context, interfaceProxy);
            String id = UUID.randomUUID().toString();
            AtomicReference<Boolean> secondHolderGotIn = new AtomicReference<>();

            Optional<String> heldKey = handler.handle(
                    new Order(id, () -> secondHolderGotIn.set(acquiresElsewhere(context, "order:" + id))));

            assertThat(heldKey).as("key of the lock held during the call").contains("order:" + id);
            assertThat(secondHolderGotIn)
                    .as("a second holder got the key during the call")
                    .hasValue(false);
            assertThat(acquiresElsewhere(context, "order:" + id))
                    .as("key free after the call")
                    .isTrue();
        });
    }

    @ParameterizedTest(name = "interface proxy: {0}")
    @ValueSource(booleans = {true, false})
    void annotationOnTheGenericInterfaceLocksTheImplementation(boolean interfaceProxy) {
        runner(interfaceProxy)
                .withBean(AnnotatedHandler.class, InterfaceAnnotatedHandler::new)
                .run(context -> {
                    assertThat(context).hasNotFailed();
                    @SuppressWarnings("unchecked")
                    AnnotatedHandler<Order> handler = context.getBean(AnnotatedHandler.class);
                    assertThat(AopUtils.isJdkDynamicProxy(handler)).isEqualTo(interfaceProxy);
                    String id = UUID.randomUUID().toString();
                    AtomicReference<Boolean> secondHolderGotIn = new AtomicReference<>();

                    Optional<String> heldKey = handler.handle(
                            new Order(id, () -> secondHolderGotIn.set(acquiresElsewhere(context, "declared:" + id))));

                    assertThat(heldKey).contains("declared:" + id);
                    assertThat(secondHolderGotIn).hasValue(false);
                });
    }

    private static ApplicationContextRunner runner(boolean interfaceProxy) {
        return DistlockContexts.onSharedRedis().withPropertyValues("spring.aop.proxy-target-class=" + !interfaceProxy);
    }

    @SuppressWarnings("unchecked")
    private static Handler<Order> handler(ApplicationContext context, boolean interfaceProxy) {
        Handler<Order> handler = context.getBean(Handler.class);
        assertThat(AopUtils.isJdkDynamicProxy(handler))
                .as("JDK interface proxy")
                .isEqualTo(interfaceProxy);
        assertThat(AopUtils.isCglibProxy(handler)).as("class proxy").isEqualTo(!interfaceProxy);
        return handler;
    }

    /** Whether another thread, as a new owner, gets the key through the application's Lock. */
    private static boolean acquiresElsewhere(ApplicationContext context, String key) {
        Lock lock = context.getBean(Lock.class);
        return CompletableFuture.supplyAsync(() -> {
                    Optional<LockHandle> handle = lock.tryAcquire(key, SHORT);
                    handle.ifPresent(LockHandle::release);
                    return handle.isPresent();
                })
                .orTimeout(10, TimeUnit.SECONDS)
                .join();
    }

    /** An order, and what to do while its lock is held. */
    public record Order(String id, Runnable whileLocked) {}

    public interface Handler<T> {
        Optional<String> handle(T item);
    }

    public static class OrderHandler implements Handler<Order> {
        @Override
        @DistributedLock(key = "'order:' + #order.id()")
        public Optional<String> handle(Order order) {
            order.whileLocked().run();
            return LockContext.current().map(LockHandle::key);
        }
    }

    public interface AnnotatedHandler<T> {
        @DistributedLock(key = "'declared:' + #p0.id()")
        Optional<String> handle(T item);
    }

    public static class InterfaceAnnotatedHandler implements AnnotatedHandler<Order> {
        @Override
        public Optional<String> handle(Order order) {
            order.whileLocked().run();
            return LockContext.current().map(LockHandle::key);
        }
    }
}
