package io.distlock.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockBackendException;
import io.distlock.LockHandle;
import io.distlock.autoconfigure.DistlockContexts;
import io.distlock.redis.RedisLock;
import io.distlock.test.redis.TestCertificates;
import io.distlock.test.redis.TestRedis;
import io.distlock.test.redis.TestRedis.Provider;
import io.distlock.test.redis.TlsSupport;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.net.ssl.SSLHandshakeException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * distlock over TLS, configured the Spring Boot way: a PEM SSL bundle named by {@code spring.data.redis.ssl.bundle}.
 * Every command, the release subscription and the watchdog's renewals go through the server's TLS port; the plain port
 * only lets the test look at Redis.
 *
 * <p>Servers come from the {@code PATH} whatever the default provider is, since only local processes get TLS (see
 * {@link TestRedis#tlsSupport(Provider)}); the tests are skipped, with the reason, where that binary lacks TLS.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedisTlsTest {

    private static final String BUNDLE = "redis-test";
    private static final Duration LONG = Duration.ofSeconds(60);

    private final ApplicationContextRunner runner = DistlockContexts.runner()
            .withConfiguration(AutoConfigurations.of(SslAutoConfiguration.class))
            .withPropertyValues("distlock.watchdog.lease=2s", "spring.data.redis.timeout=1s");

    private final String key = "tls:" + UUID.randomUUID();
    private final ExecutorService threads = Executors.newCachedThreadPool();

    @BeforeAll
    static void requireRedisWithTls() {
        TlsSupport tls = TestRedis.tlsSupport(Provider.PATH);
        assumeTrue(tls.available(), tls.reason());
    }

    @AfterEach
    void stopThreads() {
        threads.shutdownNow();
    }

    @Test
    void acquiresAndReleasesOverTls() {
        try (TestRedis redis = startTls()) {
            trusting(redis, redis.certificates()).run(context -> {
                LockHandle held = context.getBean(Lock.class)
                        .tryAcquire(key, Lease.fixed(LONG))
                        .orElseThrow();

                assertThat(held.isHeld()).isTrue();
                assertThat(redis.command("GET", lockKey())).startsWith(held.ownerToken());

                held.release();
                assertThat(redis.command("EXISTS", lockKey())).isEqualTo("0");
            });
        }
    }

    @Test
    void fencingTokensGrowOverTls() {
        try (TestRedis redis = startTls()) {
            trusting(redis, redis.certificates()).run(context -> {
                Lock lock = context.getBean(Lock.class);
                long first;
                try (LockHandle held = lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow()) {
                    first = held.fencingToken();
                }
                try (LockHandle held = lock.tryAcquire(key, Lease.fixed(LONG)).orElseThrow()) {
                    assertThat(held.fencingToken()).isGreaterThan(first);
                    assertThat(redis.command("GET", lockKey() + ":fence"))
                            .isEqualTo(Long.toString(held.fencingToken()));
                }
            });
        }
    }

    /**
     * The holder's lease is far longer than the wait, so only the release announced over pub/sub, on a TLS
     * subscription, can wake the waiter in time.
     */
    @Test
    void aWaiterOfAnotherClientIsWokenByTheReleaseOverTlsPubSub() {
        try (TestRedis redis = startTls()) {
            trusting(redis, redis.certificates()).run(context -> {
                LockHandle held = context.getBean(Lock.class)
                        .tryAcquire(key, Lease.fixed(LONG))
                        .orElseThrow();
                long subscribersBefore = subscribers(redis);
                try (RedisLock otherClient = RedisLock.builder(context.getBean(RedisConnectionFactory.class))
                        .build()) {
                    Future<Optional<LockHandle>> waiter = threads.submit(
                            () -> otherClient.tryAcquire(key, Lease.fixed(LONG), Duration.ofSeconds(20)));
                    // The waiter's mark on the key asks the holder to publish; its own subscription must hear it.
                    await().atMost(Duration.ofSeconds(10))
                            .until(() -> redis.command("GET", lockKey()).contains("+")
                                    && subscribers(redis) == subscribersBefore + 1);
                    long publishedBefore = commandCalls(redis, "publish");

                    held.release();

                    Optional<LockHandle> woken = waiter.get(5, TimeUnit.SECONDS);
                    assertThat(woken).isPresent();
                    assertThat(commandCalls(redis, "publish")).isEqualTo(publishedBefore + 1);
                    woken.orElseThrow().release();
                }
            });
        }
    }

    @Test
    void theWatchdogRenewsTheLeaseOverTls() {
        try (TestRedis redis = startTls()) {
            trusting(redis, redis.certificates()).run(context -> {
                try (LockHandle held =
                        context.getBean(Lock.class).tryAcquire(key).orElseThrow()) {
                    assertThat(Long.parseLong(redis.command("PTTL", lockKey()))).isLessThanOrEqualTo(2000);

                    await().during(Duration.ofSeconds(3))
                            .atMost(Duration.ofSeconds(5))
                            .until(() -> !held.isLost()
                                    && redis.command("GET", lockKey()).startsWith(held.ownerToken()));
                }
            });
        }
    }

    @Test
    void mutualTlsWorksWithAClientCertificateInTheBundle() {
        try (TestRedis redis = startMutualTls()) {
            TestCertificates certificates = redis.certificates();
            trusting(redis, certificates)
                    .withPropertyValues(
                            bundle("keystore.certificate", certificates.clientCertificate()),
                            bundle("keystore.private-key", certificates.clientPrivateKey()))
                    .run(context -> {
                        try (LockHandle held = context.getBean(Lock.class)
                                .tryAcquire(key, Lease.fixed(LONG))
                                .orElseThrow()) {
                            assertThat(held.isHeld()).isTrue();
                        }
                    });
        }
    }

    @Test
    void mutualTlsRefusesAnApplicationWithoutClientCertificateAtFirstUse() {
        try (TestRedis redis = startMutualTls()) {
            trusting(redis, redis.certificates()).run(context -> {
                assertThat(context).hasNotFailed();

                assertThatThrownBy(() -> context.getBean(Lock.class).tryAcquire(key, Lease.fixed(LONG)))
                        .isInstanceOf(LockBackendException.class)
                        .hasMessageContaining("'" + key + "'")
                        .hasMessageContaining("certificate_required");
                assertThat(redis.command("EXISTS", lockKey())).isEqualTo("0");
            });
        }
    }

    /**
     * Like an unreachable Redis, an untrusted one does not stop the application from starting (nothing connects at
     * start-up); the first lock call fails, naming the lock and the certificate problem.
     */
    @Test
    void anUntrustedServerCertificateFailsTheFirstLockCallClearly() {
        try (TestRedis redis = startTls();
                TestCertificates stranger = TestCertificates.generate()) {
            trusting(redis, stranger).run(context -> {
                assertThat(context).hasNotFailed();

                assertThatThrownBy(() -> context.getBean(Lock.class).tryAcquire(key, Lease.fixed(LONG)))
                        .isInstanceOf(LockBackendException.class)
                        .hasMessageContaining("'" + key + "'")
                        .hasMessageContaining("unable to find valid certification path")
                        .hasStackTraceContaining(SSLHandshakeException.class.getName());
                assertThat(redis.command("EXISTS", lockKey())).isEqualTo("0");
            });
        }
    }

    private static TestRedis startTls() {
        return TestRedis.builder().provider(Provider.PATH).tls().start();
    }

    private static TestRedis startMutualTls() {
        return TestRedis.builder().provider(Provider.PATH).mutualTls().start();
    }

    /** An application on the server's TLS port whose SSL bundle trusts the CA of {@code trusted}. */
    private ApplicationContextRunner trusting(TestRedis redis, TestCertificates trusted) {
        return runner.withPropertyValues(
                bundle("truststore.certificate", trusted.caCertificate()),
                "spring.data.redis.host=" + redis.host(),
                "spring.data.redis.port=" + redis.tlsPort(),
                "spring.data.redis.ssl.enabled=true",
                "spring.data.redis.ssl.bundle=" + BUNDLE);
    }

    private static String bundle(String property, Path pem) {
        return "spring.ssl.bundle.pem." + BUNDLE + "." + property + "=" + pem.toUri();
    }

    private String lockKey() {
        return "{distlock:" + key + "}";
    }

    private static long commandCalls(TestRedis redis, String command) {
        Matcher calls =
                Pattern.compile("cmdstat_" + command + ":calls=(\\d+)").matcher(redis.command("INFO", "commandstats"));
        return calls.find() ? Long.parseLong(calls.group(1)) : 0;
    }

    private static long subscribers(TestRedis redis) {
        return Long.parseLong(
                redis.command("PUBSUB", "NUMSUB", "distlock:released").split("\n")[1]);
    }
}
