package io.distlock.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.autoconfigure.actuate.DistributedLockEndpoint.HeldLockDescriptor;
import io.distlock.autoconfigure.actuate.DistributedLockEndpoint.KeyDescriptor;
import io.distlock.autoconfigure.actuate.DistributedLockEndpoint.LocksDescriptor;
import io.distlock.test.redis.TestRedis;
import java.security.Principal;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.actuate.autoconfigure.endpoint.EndpointAutoConfiguration;
import org.springframework.boot.actuate.autoconfigure.endpoint.web.WebEndpointAutoConfiguration;
import org.springframework.boot.actuate.endpoint.EndpointId;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.InvocationContext;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.web.ExposableWebEndpoint;
import org.springframework.boot.actuate.endpoint.web.WebEndpointsSupplier;
import org.springframework.boot.actuate.endpoint.web.WebOperation;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.convert.ApplicationConversionService;
import org.springframework.boot.data.redis.autoconfigure.DataRedisAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableReactiveWebApplicationContext;
import org.springframework.boot.test.context.runner.ReactiveWebApplicationContextRunner;

/**
 * {@code management.endpoint.distlock.show-values}, as Spring Boot's own endpoints that show values have it: keys and
 * tree names, which are often built from what users sent (an e-mail address, a customer number), are masked unless
 * the setting shows them to the caller; the endpoint's operations are called as Actuator calls them over the web.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class DistributedLockEndpointShowValuesTest {

    private static final String MASK = "******";

    /** As {@link ActuatorContexts#onSharedRedis()}, in a web application, where Actuator maps web operations. */
    private final ReactiveWebApplicationContextRunner runner = new ReactiveWebApplicationContextRunner()
            .withInitializer(
                    context -> context.getEnvironment().setConversionService(new ApplicationConversionService()))
            .withConfiguration(AutoConfigurations.of(
                    DataRedisAutoConfiguration.class,
                    DistributedLockAutoConfiguration.class,
                    EndpointAutoConfiguration.class,
                    WebEndpointAutoConfiguration.class,
                    DistributedLockEndpointAutoConfiguration.class))
            .withPropertyValues(
                    "management.endpoints.web.exposure.include=distlock",
                    "distlock.shutdown.grace-period=0s",
                    "spring.data.redis.port=" + TestRedis.shared().port());

    private final String key = "customer:" + UUID.randomUUID() + "@example.com";

    @Test
    void byDefaultKeysTreesAndWaitedForKeysAreMaskedAndNoKeyIsLookedUp() {
        runner.run(context -> {
            Lock lock = context.getBean(Lock.class);
            try (LockHandle held = lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(30)))
                            .orElseThrow();
                    LockHandle path = lock.tree(key).tryAcquire("drafts/7").orElseThrow()) {
                CompletableFuture<Optional<LockHandle>> waiter = CompletableFuture.supplyAsync(() -> waitFor(lock));
                await().atMost(Duration.ofSeconds(10))
                        .until(() -> locks(context, null).waitingCount() == 1);

                LocksDescriptor locks = locks(context, null);
                assertThat(locks.held()).extracting(HeldLockDescriptor::key).containsExactly(MASK, MASK);
                assertThat(locks.held()).extracting(HeldLockDescriptor::tree).containsExactly(null, MASK);
                assertThat(locks.waiting()).isEqualTo(Map.of(MASK, 1));
                assertThatThrownBy(() -> key(context, null))
                        .isInstanceOf(InvalidEndpointRequestException.class)
                        .hasMessageContaining("management.endpoint.distlock.show-values");
                held.release();
                waiter.get(10, TimeUnit.SECONDS).orElseThrow().release();
            }
        });
    }

    @Test
    void alwaysShowsThemToEveryone() {
        runner.withPropertyValues("management.endpoint.distlock.show-values=always")
                .run(context -> {
                    try (LockHandle held =
                            context.getBean(Lock.class).tryAcquire(key).orElseThrow()) {
                        assertThat(locks(context, null).held())
                                .extracting(HeldLockDescriptor::key)
                                .containsExactly(key);
                        assertThat(key(context, null).held()).isTrue();
                    }
                });
    }

    @Test
    void whenAuthorizedShowsThemOnlyToAUserInOneOfTheRoles() {
        runner.withPropertyValues(
                        "management.endpoint.distlock.show-values=when-authorized",
                        "management.endpoint.distlock.roles=OPERATOR")
                .run(context -> {
                    try (LockHandle held =
                            context.getBean(Lock.class).tryAcquire(key).orElseThrow()) {
                        assertThat(locks(context, user("OPERATOR")).held())
                                .extracting(HeldLockDescriptor::key)
                                .containsExactly(key);
                        assertThat(key(context, user("OPERATOR")).held()).isTrue();
                        assertThat(locks(context, user("SUPPORT")).held())
                                .extracting(HeldLockDescriptor::key)
                                .containsExactly(MASK);
                        assertThat(locks(context, null).held())
                                .extracting(HeldLockDescriptor::key)
                                .containsExactly(MASK);
                        assertThatThrownBy(() -> key(context, user("SUPPORT")))
                                .isInstanceOf(InvalidEndpointRequestException.class);
                    }
                });
    }

    private Optional<LockHandle> waitFor(Lock lock) {
        try {
            return lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(30)), Duration.ofSeconds(20));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.empty();
        }
    }

    private static LocksDescriptor locks(
            AssertableReactiveWebApplicationContext context, @Nullable SecurityContext caller) {
        return (LocksDescriptor) operation(context, "").invoke(invocation(caller, Map.of()));
    }

    private KeyDescriptor key(AssertableReactiveWebApplicationContext context, @Nullable SecurityContext caller) {
        return (KeyDescriptor) operation(context, "/{key}").invoke(invocation(caller, Map.of("key", key)));
    }

    private static InvocationContext invocation(@Nullable SecurityContext caller, Map<String, Object> arguments) {
        return new InvocationContext(caller == null ? SecurityContext.NONE : caller, arguments);
    }

    /** The operation at a path below the endpoint's, as Actuator maps it for the web. */
    private static WebOperation operation(AssertableReactiveWebApplicationContext context, String below) {
        ExposableWebEndpoint endpoint = context.getBean(WebEndpointsSupplier.class).getEndpoints().stream()
                .filter(candidate -> candidate.getEndpointId().equals(EndpointId.of("distlock")))
                .findFirst()
                .orElseThrow();
        return endpoint.getOperations().stream()
                .filter(operation -> operation.getRequestPredicate().getPath().equals("distlock" + below))
                .findFirst()
                .orElseThrow();
    }

    private static SecurityContext user(String role) {
        Principal principal = () -> "someone";
        return new SecurityContext() {
            @Override
            public Principal getPrincipal() {
                return principal;
            }

            @Override
            public boolean isUserInRole(String candidate) {
                return candidate.equals(role);
            }
        };
    }
}
