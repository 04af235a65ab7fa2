package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.DistributedLock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.springframework.aop.support.AopUtils;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Annotated methods that implement a generic interface with concrete types: calls through the interface arrive at a
 * compiler-generated bridge method, and both JDK interface proxies and class proxies must lock them.
 */
class GenericInterfaceTest {

    private final ApplicationContextRunner runner =
            DistlockContexts.onSharedRedis().withBean(Handler.class, OrderHandler::new);

    @Test
    void interfaceProxyLocksTheImplementationOfAGenericMethod() {
        runner.withPropertyValues("spring.aop.proxy-target-class=false").run(context -> {
            assertThat(context).hasNotFailed();
            @SuppressWarnings("unchecked")
            Handler<String> handler = context.getBean(Handler.class);
            assertThat(AopUtils.isJdkDynamicProxy(handler)).isTrue();
            assertThat(handler.handle("42"))
                    .as("key of the lock held during the call")
                    .contains("order:42");
        });
    }

    @Test
    void classProxyLocksTheImplementationOfAGenericMethod() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            @SuppressWarnings("unchecked")
            Handler<String> handler = context.getBean(Handler.class);
            assertThat(AopUtils.isCglibProxy(handler)).isTrue();
            assertThat(handler.handle("42"))
                    .as("key of the lock held during the call")
                    .contains("order:42");
        });
    }

    public interface Handler<T> {
        Optional<String> handle(T item);
    }

    public static class OrderHandler implements Handler<String> {
        @Override
        @DistributedLock(key = "'order:' + #order")
        public Optional<String> handle(String order) {
            return LockContext.current().map(LockHandle::key);
        }
    }
}
