package io.distlock.autoconfigure.memory;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.autoconfigure.DistlockContexts;
import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.memory.InMemoryLeaseStore;
import io.distlock.redis.RedisLock;
import io.distlock.store.StoreLock;
import io.distlock.tck.LockAssertions;
import java.time.Duration;
import java.util.UUID;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.reactor.netty.autoconfigure.NettyReactiveWebServerAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.boot.webflux.autoconfigure.HttpHandlerAutoConfiguration;
import org.springframework.boot.webflux.autoconfigure.WebFluxAutoConfiguration;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@code distlock.backend=in-memory}: the lock bean in this JVM's memory, chosen only by name, and said so at start-up,
 * as a warning when a web server runs.
 */
@ExtendWith(OutputCaptureExtension.class)
class InMemoryBackendTest {

    /** As arguments, above the test class path's application.properties, which names Redis. */
    private static final String IN_MEMORY = "--distlock.backend=in-memory";

    private static final String WARNING = "yet this application serves requests on port";

    /** Spring Boot's Redis auto-configuration, without an address: no Redis is needed. */
    private final ApplicationContextRunner runner = DistlockContexts.runner();

    @Test
    void inMemoryIsNeverChosenBecauseNothingElseIsPresent() {
        runner.run(context -> {
            assertThat(context).hasNotFailed();
            assertThat(context).doesNotHaveBean(StoreLock.class);
        });
    }

    @Test
    void namedInMemoryBuildsALockThatExcludesWithinTheJvm() {
        runner.withPropertyValues("distlock.backend=in-memory").run(context -> {
            assertThat(context).hasNotFailed();
            Lock lock = context.getBean(Lock.class);
            assertThat(lock).isInstanceOf(StoreLock.class);
            String key = "memory:" + UUID.randomUUID();
            try (LockHandle held =
                    lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(30))).orElseThrow()) {
                assertThat(lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(30))))
                        .isEmpty();
                assertThat(held.fencingToken()).isPositive();
            }
            assertThat(lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(30))))
                    .isPresent();
        });
    }

    @Test
    void namedInMemoryWinsOverAConnectedRedis() {
        DistlockContexts.onSharedRedis()
                .withPropertyValues("distlock.backend=IN_MEMORY")
                .run(context -> {
                    assertThat(context).hasSingleBean(StoreLock.class);
                    assertThat(context).doesNotHaveBean(RedisLock.class);
                });
    }

    @Test
    void anApplicationsStoreBeanIsTheOneTheLockUses() {
        InMemoryLeaseStore store = new InMemoryLeaseStore();
        String key = "memory:" + UUID.randomUUID();
        try (StoreLock otherInstance = StoreLock.builder(store).build();
                LockHandle held = otherInstance
                        .tryAcquire(key, Lease.fixed(Duration.ofSeconds(30)))
                        .orElseThrow()) {
            runner.withPropertyValues("distlock.backend=in-memory")
                    .withBean(InMemoryLeaseStore.class, () -> store)
                    .run(context -> assertThat(
                                    context.getBean(Lock.class).tryAcquire(key, Lease.fixed(Duration.ofSeconds(30))))
                            .isEmpty());
            assertThat(held.isHeld()).isTrue();
        }
    }

    @Test
    void anAnnotatedMethodRunsUnderTheInMemoryLock() {
        runner.withPropertyValues("distlock.backend=in-memory")
                .withUserConfiguration(Jobs.class)
                .run(context -> {
                    String job = UUID.randomUUID().toString();
                    LockHandle held = context.getBean(Job.class).run(job);
                    assertThat(held.key()).isEqualTo("job:" + job);
                    assertThat(held.isHeld()).isFalse();
                });
    }

    @Test
    void anApplicationsOwnLockBeanTurnsTheInMemoryLockAndItsMessageOff(CapturedOutput output) {
        try (ConfigurableApplicationContext context = application()
                .web(WebApplicationType.NONE)
                .sources(OwnLock.class)
                .run(IN_MEMORY)) {
            assertThat(context.getBean(Lock.class)).isSameAs(context.getBean("ownLock"));
            assertThat(context.getBeansOfType(InMemoryLockWarning.class)).isEmpty();
        }
        assertThat(output).doesNotContain("distlock.backend=in-memory: ");
    }

    @Test
    void withoutAWebServerStartUpSaysSoAtInfo(CapturedOutput output) {
        try (ConfigurableApplicationContext context =
                application().web(WebApplicationType.NONE).run(IN_MEMORY)) {
            assertThat(context.getBean(Lock.class)).isInstanceOf(StoreLock.class);
        }
        assertThat(output)
                .contains("INFO")
                .contains("distlock.backend=in-memory: distlock's lock keeps its leases in this JVM's memory")
                .doesNotContain(WARNING);
    }

    @Test
    @Timeout(60)
    void withAWebServerStartUpWarnsNamingThePortAndTheSharedStores(CapturedOutput output) {
        int port;
        try (ConfigurableApplicationContext context = application()
                .web(WebApplicationType.REACTIVE)
                .sources(WebServer.class)
                .run(IN_MEMORY, "--server.port=0")) {
            port = context.getEnvironment().getRequiredProperty("local.server.port", Integer.class);
        }
        assertThat(output)
                .contains("WARN")
                .contains(WARNING + " " + port)
                .contains("distlock.backend=redis, jdbc or zookeeper");
    }

    private static SpringApplicationBuilder application() {
        return new SpringApplicationBuilder(Application.class).properties("spring.main.banner-mode=off");
    }

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration(DistributedLockAutoConfiguration.class)
    static class Application {}

    @Configuration(proxyBeanMethods = false)
    @ImportAutoConfiguration({
        NettyReactiveWebServerAutoConfiguration.class,
        HttpHandlerAutoConfiguration.class,
        WebFluxAutoConfiguration.class
    })
    static class WebServer {}

    @Configuration(proxyBeanMethods = false)
    static class OwnLock {

        @Bean
        Lock ownLock() {
            return StoreLock.builder(new InMemoryLeaseStore()).build();
        }
    }

    @Configuration(proxyBeanMethods = false)
    static class Jobs {

        @Bean
        Job job() {
            return new Job();
        }
    }

    static class Job {

        @DistributedLock(key = "'job:' + #id")
        LockHandle run(String id) {
            return LockAssertions.assertRunsUnderLock("job:" + id);
        }
    }
}
