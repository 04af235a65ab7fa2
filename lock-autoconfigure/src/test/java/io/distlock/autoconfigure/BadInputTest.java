package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.redis.RedisLock;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.data.redis.connection.RedisConnectionFactory;

/**
 * Bad input of every kind, each row with the clear error it must give; after each row a normal lock still works.
 * Odd but valid keys must simply work.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BadInputTest {

    private static final Lease LEASE = Lease.fixed(Duration.ofSeconds(10));

    private static final ApplicationContextRunner RUNNER = DistlockContexts.onSharedRedis();

    private static ConfigurableApplicationContext context;
    private static Lock lock;
    private static Lock otherClient;
    private static Keys keys;

    @BeforeAll
    static void startApplication() {
        context = new SpringApplicationBuilder(Application.class)
                .web(WebApplicationType.NONE)
                .properties("spring.data.redis.port=" + TestRedis.shared().port())
                .run();
        lock = context.getBean(Lock.class);
        keys = context.getBean(Keys.class);
        otherClient =
                RedisLock.builder(context.getBean(RedisConnectionFactory.class)).build();
    }

    @AfterAll
    static void stopApplication() {
        ((RedisLock) otherClient).close();
        context.close();
    }

    static Stream<Arguments> rows() {
        return Stream.of(
                row(
                        "null key",
                        () -> lock.tryAcquire(null, LEASE),
                        IllegalArgumentException.class,
                        "key must not be null"),
                row("empty key", () -> lock.tryAcquire("", LEASE), IllegalArgumentException.class, "blank"),
                row("blank key", () -> lock.tryAcquire(" \t\n", LEASE), IllegalArgumentException.class, "blank"),
                row(
                        "key over 1024 characters",
                        () -> lock.tryAcquire("k".repeat(1025), LEASE),
                        IllegalArgumentException.class,
                        "at most 1024 characters"),
                row(
                        "null lease",
                        () -> lock.tryAcquire(unique(), (Lease) null),
                        IllegalArgumentException.class,
                        "lease"),
                row("zero lease", () -> Lease.fixed(Duration.ZERO), IllegalArgumentException.class, "at least 1 ms"),
                row(
                        "negative lease",
                        () -> Lease.fixed(Duration.ofSeconds(-1)),
                        IllegalArgumentException.class,
                        "at least 1 ms"),
                row(
                        "sub-millisecond lease",
                        () -> Lease.fixed(Duration.ofNanos(500)),
                        IllegalArgumentException.class,
                        "at least 1 ms"),
                row(
                        "absurd lease",
                        () -> Lease.fixed(Duration.ofSeconds(Long.MAX_VALUE)),
                        IllegalArgumentException.class,
                        "at most PT24H"),
                row(
                        "negative wait",
                        () -> lock.tryAcquire(unique(), LEASE, Duration.ofMillis(-1)),
                        IllegalArgumentException.class,
                        "wait must be zero"),
                row("null wait", () -> lock.tryAcquire(unique(), LEASE, null), IllegalArgumentException.class, "wait"),
                row(
                        "extend by a zero lease",
                        () -> held().extend(Duration.ZERO),
                        IllegalArgumentException.class,
                        "at least 1 ms"),
                row(
                        "releasing twice",
                        () -> {
                            LockHandle handle = held();
                            handle.release();
                            handle.release();
                        },
                        IllegalStateException.class,
                        "already released"),
                row(
                        "extending a released handle",
                        () -> {
                            LockHandle handle = held();
                            handle.release();
                            handle.extend(Duration.ofSeconds(1));
                        },
                        IllegalStateException.class,
                        "already released"),
                row("releasing a lost lock", () -> lostHandle().release(), LockLostException.class, "was lost"),
                row(
                        "extending a lost lock",
                        () -> lostHandle().extend(Duration.ofSeconds(5)),
                        LockLostException.class,
                        "was lost"),
                row(
                        "releasing through another thread a lock another client took over",
                        () -> releaseOnOtherThread(lostHandle()),
                        LockLostException.class,
                        "lease ran out"),
                row(
                        "null work",
                        () -> lock.runWithLock(unique(), LEASE, Duration.ZERO, null),
                        IllegalArgumentException.class,
                        "work"),
                row(
                        "annotation key evaluating to null",
                        () -> keys.locked(null),
                        IllegalArgumentException.class,
                        "evaluated to null"),
                row(
                        "annotation key evaluating to blank",
                        () -> keys.locked(" "),
                        IllegalArgumentException.class,
                        "blank key"),
                row(
                        "annotation key failing to evaluate",
                        () -> keys.nested(null),
                        IllegalArgumentException.class,
                        "could not be evaluated"),
                row(
                        "empty set of keys",
                        () -> lock.tryAcquireAll(List.of(), LEASE, Duration.ZERO),
                        IllegalArgumentException.class,
                        "keys must name at least one key, but was empty"),
                row(
                        "null set of keys",
                        () -> lock.tryAcquireAll(null, LEASE, Duration.ZERO),
                        IllegalArgumentException.class,
                        "keys must name at least one key, but was null"),
                row(
                        "blank key among several",
                        () -> lock.acquireAll(List.of(unique(), ""), LEASE),
                        IllegalArgumentException.class,
                        "keys must not contain a null or blank key, but key 2 of 2 was blank"),
                row(
                        "more keys at once than allowed",
                        () -> lock.acquireAll(Collections.nCopies(Lock.MAX_KEYS_AT_ONCE + 1, unique()), LEASE),
                        IllegalArgumentException.class,
                        "keys must name at most 100 keys at once, but named 101"),
                row(
                        "annotation with both key and keys",
                        () -> startWith(DistributedLockStartupCheckTest.BothKeyAndKeys.class),
                        IllegalStateException.class,
                        "set key or keys, not both"),
                row(
                        "annotation key naming a collection parameter",
                        () -> startWith(DistributedLockStartupCheckTest.CollectionKey.class),
                        IllegalStateException.class,
                        "write keys = \"#skus\""),
                row(
                        "annotation syntax error",
                        () -> startWith(DistributedLockStartupCheckTest.SyntaxError.class),
                        IllegalStateException.class,
                        "not a valid SpEL expression"),
                row(
                        "annotation unknown parameter",
                        () -> startWith(DistributedLockStartupCheckTest.UnknownParameter.class),
                        IllegalStateException.class,
                        "which is not a parameter"),
                row(
                        "invalid property",
                        () -> startWith("distlock.default-wait=-3s"),
                        IllegalStateException.class,
                        "distlock.default-wait"),
                row(
                        "negative shutdown grace period",
                        () -> startWith("distlock.shutdown.grace-period=-1s"),
                        IllegalStateException.class,
                        "distlock.shutdown.grace-period"),
                row(
                        "conflicting properties",
                        () -> startWith("distlock.watchdog.lease=1s", "distlock.watchdog.renew-interval=2s"),
                        IllegalStateException.class,
                        "distlock.watchdog.renew-interval"),
                row(
                        "negative replica acknowledgements",
                        () -> startWith("distlock.redis.replica-ack.replicas=-1"),
                        IllegalStateException.class,
                        "distlock.redis.replica-ack.replicas"),
                row(
                        "replica acknowledgement timeout not shorter than the command timeout",
                        () -> startWith(
                                "distlock.redis.replica-ack.replicas=1",
                                "distlock.redis.replica-ack.timeout=5s",
                                "spring.data.redis.timeout=2s"),
                        IllegalStateException.class,
                        "shorter than the Redis command timeout (2000 ms)"),
                row(
                        "even number of Redlock nodes",
                        () -> startWithRedlock(4),
                        IllegalStateException.class,
                        "distlock.redlock.nodes with value '4 node(s)' is invalid: must be an odd number of nodes,"
                                + " at least 3"),
                row(
                        "fewer than 3 Redlock nodes",
                        () -> startWithRedlock(1),
                        IllegalStateException.class,
                        "must be an odd number of nodes, at least 3"),
                row(
                        "Redlock node without url",
                        () -> startWithRedlock(
                                3, "distlock.redlock.nodes[1].url=", "distlock.redlock.nodes[1].password=x"),
                        IllegalStateException.class,
                        "distlock.redlock.nodes[1].url with value '' is invalid: is required"),
                row(
                        "Redlock node url with another scheme",
                        () -> startWithRedlock(3, "distlock.redlock.nodes[0].url=http://localhost:6379"),
                        IllegalStateException.class,
                        "distlock.redlock.nodes[0].url"),
                row(
                        "Redlock node url without host",
                        () -> startWithRedlock(3, "distlock.redlock.nodes[2].url=redis://:secret@:6379"),
                        IllegalStateException.class,
                        "must be redis://[[user]:password@]host[:port][/database]"),
                row(
                        "Redlock node url with a database that is not a number",
                        () -> startWithRedlock(3, "distlock.redlock.nodes[2].url=redis://localhost:7003/first"),
                        IllegalStateException.class,
                        "its path must be a database number"),
                row(
                        "Redlock node url that is not a URL",
                        () -> startWithRedlock(3, "distlock.redlock.nodes[0].url=redis://local host"),
                        IllegalStateException.class,
                        "distlock.redlock.nodes[0].url"),
                row(
                        "the same server twice in a Redlock",
                        () -> startWithRedlock(3, "distlock.redlock.nodes[2].url=redis://LOCALHOST:7001/0"),
                        IllegalStateException.class,
                        "distlock.redlock.nodes[2].url with value 'redis://LOCALHOST:7001/0' is invalid: must name"
                                + " another Redis server than distlock.redlock.nodes[0].url"),
                row(
                        "Redlock node username without password",
                        () -> startWithRedlock(3, "distlock.redlock.nodes[1].username=app"),
                        IllegalStateException.class,
                        "distlock.redlock.nodes[1].username"),
                row(
                        "unknown SSL bundle of a Redlock node",
                        () -> startWithRedlock(3, "distlock.redlock.nodes[1].ssl.bundle=nowhere"),
                        IllegalStateException.class,
                        "distlock.redlock.nodes[1].ssl.bundle with value 'nowhere' is invalid"),
                row(
                        "SSL bundle of a Redlock node unknown among the application's bundles",
                        () -> rethrowStartupFailure(RUNNER.withConfiguration(
                                        AutoConfigurations.of(SslAutoConfiguration.class))
                                .withPropertyValues(redlockNodes(3, "distlock.redlock.nodes[2].ssl.bundle=nowhere"))),
                        IllegalStateException.class,
                        "distlock.redlock.nodes[2].ssl.bundle with value 'nowhere' is invalid: must name one of the"
                                + " application's SSL bundles"),
                row(
                        "TLS switched off for a rediss url",
                        () -> startWithRedlock(
                                3,
                                "distlock.redlock.nodes[0].url=rediss://localhost:7001",
                                "distlock.redlock.nodes[0].ssl.enabled=false"),
                        IllegalStateException.class,
                        "distlock.redlock.nodes[0].ssl.enabled"),
                row(
                        "clock drift factor above 0.5",
                        () -> startWithRedlock(3, "distlock.redlock.clock-drift-factor=0.6"),
                        IllegalStateException.class,
                        "distlock.redlock.clock-drift-factor with value '0.6' is invalid: must be from 0 to 0.5"),
                row(
                        "negative clock drift factor",
                        () -> startWithRedlock(3, "distlock.redlock.clock-drift-factor=-0.01"),
                        IllegalStateException.class,
                        "distlock.redlock.clock-drift-factor"),
                row(
                        "Redlock command timeout not shorter than the watchdog lease",
                        () -> startWithRedlock(3, "distlock.redlock.timeout=30s"),
                        IllegalStateException.class,
                        "distlock.redlock.timeout"),
                row(
                        "zero Redlock connect timeout",
                        () -> startWithRedlock(3, "distlock.redlock.connect-timeout=0s"),
                        IllegalStateException.class,
                        "distlock.redlock.connect-timeout"),
                row(
                        "fair annotated method with a Redlock",
                        () -> rethrowStartupFailure(
                                RUNNER.withBean(FairJob.class).withPropertyValues(redlockNodes(3))),
                        IllegalStateException.class,
                        "@DistributedLock(fair = true) methods cannot run, because the Lock bean"),
                row(
                        "read annotated method with a Redlock",
                        () -> rethrowStartupFailure(
                                RUNNER.withBean(ReadJob.class).withPropertyValues(redlockNodes(3))),
                        IllegalStateException.class,
                        "@DistributedLock(read = true) methods cannot run, because the Lock bean"),
                row(
                        "path annotated method with a Redlock, which lacks the kind",
                        () -> rethrowStartupFailure(
                                RUNNER.withBean(PathJob.class).withPropertyValues(redlockNodes(3))),
                        IllegalStateException.class,
                        "has no path lock. Methods: " + PathJob.class.getName()),
                row(
                        "path annotated method on the in-memory backend, which locks paths",
                        () -> rethrowStartupFailure(
                                RUNNER.withBean(PathJob.class).withPropertyValues("distlock.backend=in-memory")),
                        null,
                        null),
                row(
                        "fair annotated method on the in-memory backend, whose lock is fair",
                        () -> rethrowStartupFailure(
                                RUNNER.withBean(FairJob.class).withPropertyValues("distlock.backend=in-memory")),
                        null,
                        null),
                row(
                        "semaphore annotated method with a Redlock, which lacks the kind",
                        () -> rethrowStartupFailure(
                                RUNNER.withBean(ExportJob.class).withPropertyValues(redlockNodes(3))),
                        IllegalStateException.class,
                        "@DistributedLock(permits = ...) methods cannot run, because the Lock bean Redlock"),
                row(
                        "semaphore annotated method on the in-memory backend, which offers the kind",
                        () -> rethrowStartupFailure(
                                RUNNER.withBean(ExportJob.class).withPropertyValues("distlock.backend=in-memory")),
                        null,
                        null),
                row(
                        "annotation with more permits than allowed",
                        () -> startWith(TooManyPermitsJob.class),
                        IllegalStateException.class,
                        "permits must be from 1 to 1000 calls at once, or 0 for the key's lock, but was 1001"),
                row(
                        "annotation with permits and read",
                        () -> startWith(ReadPermitsJob.class),
                        IllegalStateException.class,
                        "permits cannot be combined with read"),
                row(
                        "annotation both read and fair",
                        () -> startWith(ReadAndFairJob.class),
                        IllegalStateException.class,
                        "read and fair cannot be combined"),
                row(
                        "replica acknowledgements with a Redlock",
                        () -> startWithRedlock(3, "distlock.redis.replica-ack.replicas=1"),
                        IllegalStateException.class,
                        "distlock.redis.replica-ack.replicas with value '1' is invalid: must be 0 when"
                                + " distlock.redlock.nodes are configured"),
                row(
                        "expiring fencing counters with a Redlock",
                        () -> startWithRedlock(3, "distlock.redis.delete-counters-unused-for=1d"),
                        IllegalStateException.class,
                        "distlock.redis.delete-counters-unused-for with value 'PT24H' is invalid: must be unset when"
                                + " distlock.redlock.nodes are configured"),
                row(
                        "fencing counters that expire within a second",
                        () -> startWith("distlock.redis.delete-counters-unused-for=500ms"),
                        IllegalStateException.class,
                        "distlock.redis.delete-counters-unused-for with value 'PT0.5S' is invalid: must be at least 1s"),
                row(
                        "local handover with a Redlock",
                        () -> startWithRedlock(3, "distlock.redis.local-handover-window=50ms"),
                        IllegalStateException.class,
                        "distlock.redis.local-handover-window with value 'PT0.05S' is invalid: must be unset when"
                                + " distlock.redlock.nodes are configured"),
                row(
                        "local handover beside replica acknowledgements",
                        () -> startWith(
                                "distlock.redis.local-handover-window=50ms", "distlock.redis.replica-ack.replicas=1"),
                        IllegalStateException.class,
                        "distlock.redis.local-handover-window with value 'PT0.05S' is invalid: must be unset while"
                                + " distlock.redis.replica-ack.replicas is 1"),
                row(
                        "local handover window out of range",
                        () -> startWith("distlock.redis.local-handover-window=0ms"),
                        IllegalStateException.class,
                        "distlock.redis.local-handover-window with value 'PT0S' is invalid: must be from 1ms to 1min"),
                row(
                        "lock table rows deleted within a second",
                        () -> startWith("distlock.jdbc.delete-rows-unused-for=500ms"),
                        IllegalStateException.class,
                        "distlock.jdbc.delete-rows-unused-for"),
                row("key with braces", () -> lockAndRelease("{a}b}{"), null, null),
                row("key with spaces", () -> lockAndRelease("stock of apples"), null, null),
                row("unicode key", () -> lockAndRelease("склад:りんご:🍎"), null, null),
                row("key with glob characters", () -> lockAndRelease("stock:*?[a-z]"), null, null),
                row("key with newlines", () -> lockAndRelease("line1\nline2\r\n"), null, null),
                row("key of exactly 1024 characters", () -> lockAndRelease("k".repeat(1024)), null, null),
                row(
                        "absurd wait on a free lock",
                        () -> lock.tryAcquire(unique(), LEASE, Duration.ofSeconds(Long.MAX_VALUE))
                                .orElseThrow()
                                .release(),
                        null,
                        null));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("rows")
    void badInputGivesAClearErrorAndDisturbsNothing(
            String name, Action action, Class<? extends Throwable> expected, String messagePart) throws Throwable {
        if (expected == null) {
            action.run();
        } else {
            assertThatThrownBy(action::run)
                    .as(name)
                    .isInstanceOf(expected)
                    .satisfies(error -> assertThat(messages(error)).contains(messagePart));
        }
        assertNormalLockStillWorks();
    }

    private static void assertNormalLockStillWorks() throws Exception {
        String key = unique();
        try (LockHandle held =
                lock.tryAcquire(key, LEASE, Duration.ofSeconds(5)).orElseThrow()) {
            assertThat(otherClient.tryAcquire(key, LEASE)).isEmpty();
        }
        assertThat(otherClient.tryAcquire(key, LEASE)).isPresent();
    }

    private static String messages(Throwable error) {
        StringBuilder all = new StringBuilder();
        for (Throwable current = error; current != null; current = current.getCause()) {
            all.append(current.getMessage()).append('\n');
        }
        return all.toString();
    }

    private static String unique() {
        return "bad-input:" + UUID.randomUUID();
    }

    private static LockHandle held() {
        return lock.tryAcquire(unique(), LEASE).orElseThrow();
    }

    /** A handle whose short lease ran out and whose key another client then took. */
    private static LockHandle lostHandle() throws Exception {
        String key = unique();
        LockHandle handle =
                lock.tryAcquire(key, Lease.fixed(Duration.ofMillis(50))).orElseThrow();
        otherClient.tryAcquire(key, LEASE, Duration.ofSeconds(5)).orElseThrow();
        return handle;
    }

    private static void releaseOnOtherThread(LockHandle handle) throws Throwable {
        try {
            CompletableFuture.runAsync(handle::release).get(10, TimeUnit.SECONDS);
        } catch (java.util.concurrent.ExecutionException e) {
            throw e.getCause();
        }
    }

    private static void lockAndRelease(String key) {
        LockHandle held = lock.tryAcquire(key, LEASE).orElseThrow();
        assertThat(otherClient.tryAcquire(key, LEASE)).isEmpty();
        held.release();
        otherClient.tryAcquire(key, LEASE).orElseThrow().release();
    }

    private static void startWith(Class<?> bean) {
        rethrowStartupFailure(RUNNER.withBean(bean));
    }

    private static void startWith(String... properties) {
        rethrowStartupFailure(RUNNER.withPropertyValues(properties));
    }

    /**
     * Starts with {@code count} Redlock nodes on distinct local addresses, then {@code properties} on top. Nothing
     * connects to them at start-up, so nothing needs to listen there.
     */
    private static void startWithRedlock(int count, String... properties) {
        startWith(redlockNodes(count, properties));
    }

    private static String[] redlockNodes(int count, String... properties) {
        List<String> all = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            all.add("distlock.redlock.nodes[" + i + "].url=redis://localhost:" + (7001 + i));
        }
        all.addAll(List.of(properties));
        return all.toArray(String[]::new);
    }

    private static void rethrowStartupFailure(ApplicationContextRunner runner) {
        runner.run(started -> {
            if (started.getStartupFailure() != null) {
                throw new IllegalStateException("start-up failed", started.getStartupFailure());
            }
        });
    }

    private static Arguments row(String name, Action action, Class<? extends Throwable> expected, String message) {
        return Arguments.of(name, action, expected, message);
    }

    @FunctionalInterface
    interface Action {
        void run() throws Throwable;
    }

    public static class Keys {

        @DistributedLock(key = "#sku")
        public String locked(String sku) {
            return sku;
        }

        @DistributedLock(key = "'order:' + #order.id()")
        public String nested(Order order) {
            return order.id();
        }
    }

    public static class FairJob {

        @DistributedLock(key = "'job'", fair = true)
        public String run() {
            return "ran";
        }
    }

    public static class ReadJob {

        @DistributedLock(key = "'report'", read = true)
        public String run() {
            return "ran";
        }
    }

    public static class PathJob {

        @DistributedLock(tree = "'docs'", path = "'reports/monthly'")
        public String run() {
            return "ran";
        }
    }

    public static class ExportJob {

        @DistributedLock(key = "'export'", permits = 3)
        public String run() {
            return "ran";
        }
    }

    public static class TooManyPermitsJob {

        @DistributedLock(key = "'export'", permits = 1_001)
        public String run() {
            return "ran";
        }
    }

    public static class ReadPermitsJob {

        @DistributedLock(key = "'export'", permits = 2, read = true)
        public String run() {
            return "ran";
        }
    }

    public static class ReadAndFairJob {

        @DistributedLock(key = "'report'", read = true, fair = true)
        public String run() {
            return "ran";
        }
    }

    public record Order(String id) {}

    @SpringBootConfiguration
    @EnableAutoConfiguration
    @Import(Keys.class)
    static class Application {}
}
