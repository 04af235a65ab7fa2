package io.distlock.autoconfigure.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import java.time.Duration;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * {@code distlock.zookeeper.ssl.*} against a real ZooKeeper that answers only over TLS: distlock's own client locks
 * there trusting the ensemble's authority, set for that client alone; without TLS, it cannot talk to the secure port.
 */
@Timeout(value = 90, unit = TimeUnit.SECONDS)
class ZooKeeperTlsTest {

    private static TlsZooKeeper zooKeeper;

    private final String key = "tls-" + UUID.randomUUID();

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DistributedLockAutoConfiguration.class))
            .withPropertyValues(
                    "distlock.backend=zookeeper",
                    "distlock.shutdown.grace-period=0s",
                    "distlock.zookeeper.connect-string=" + zooKeeper.connectString(),
                    "distlock.zookeeper.session-timeout=5s",
                    "distlock.zookeeper.call-timeout=3s");

    @BeforeAll
    static void startZooKeeper() throws Exception {
        zooKeeper = new TlsZooKeeper();
    }

    @AfterAll
    static void stopZooKeeper() throws Exception {
        zooKeeper.close();
    }

    @Test
    void distlocksOwnClientLocksOverTlsTrustingTheEnsemblesAuthority() {
        runner.withPropertyValues(
                        "distlock.zookeeper.ssl.enabled=true",
                        "distlock.zookeeper.ssl.trust-store-location=" + zooKeeper.caCertificate(),
                        "distlock.zookeeper.ssl.trust-store-type=PEM")
                .run(context -> {
                    Lock lock = context.getBean(Lock.class);
                    LockHandle held = lock.tryAcquire(key, Lease.fixed(Duration.ofSeconds(30)), Duration.ofSeconds(20))
                            .orElseThrow();
                    assertThat(held.isHeld()).isTrue();
                    held.release();
                });
    }

    @Test
    void withoutTlsTheClientCannotTalkToTheSecurePort() {
        runner.run(context -> assertThatThrownBy(
                        () -> context.getBean(Lock.class).tryAcquire(key, Lease.fixed(Duration.ofSeconds(30))))
                .isInstanceOf(LockBackendException.class));
    }
}
