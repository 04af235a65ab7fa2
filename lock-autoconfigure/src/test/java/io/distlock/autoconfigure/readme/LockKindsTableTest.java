package io.distlock.autoconfigure.readme;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Kind;
import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.MultiLockHandle;
import io.distlock.autoconfigure.DistlockContexts;
import io.distlock.redis.Redlock;
import io.distlock.test.redis.TestRedis;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import javax.sql.DataSource;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/**
 * The kind-by-backend table of docs/reference/lock-kinds.md against what each backend's lock offers: a "yes" under
 * Exclusive or Several keys is an acquisition that succeeds, a "yes" under a kind is {@link Lock#kind(Kind)} handing it
 * out, and a "no" is its answering empty.
 */
class LockKindsTableTest {

    private static final Lease LEASE = Lease.fixed(Duration.ofSeconds(10));
    private static final List<String> COLUMNS =
            List.of("Exclusive", "Several keys at once", "Fair", "Read", "Path", "Semaphore");
    private static final List<Kind<?>> KINDS = List.of(Kind.FAIR, Kind.READ, Kind.PATH, Kind.SEMAPHORE);

    private static TestingServer zooKeeper;
    private static List<TestRedis> redlockNodes;

    /** Spring Boot's Redis auto-configuration still makes a connection factory, but lock-redis is missing. */
    private final ApplicationContextRunner withoutRedis =
            DistlockContexts.runner().withClassLoader(new FilteredClassLoader("io.distlock.redis."));

    @BeforeAll
    static void startServers() throws Exception {
        zooKeeper = new TestingServer(true);
        redlockNodes = List.of(TestRedis.start(), TestRedis.start(), TestRedis.start());
    }

    @AfterAll
    static void stopServers() throws Exception {
        zooKeeper.close();
        redlockNodes.forEach(TestRedis::close);
    }

    @Test
    void everyRowSaysWhatItsBackendsLockOffers() throws Exception {
        Map<String, List<String>> table = table();
        assertThat(table)
                .containsOnlyKeys(
                        "Redis: standalone, Sentinel, Cluster",
                        "Redlock",
                        "JDBC (PostgreSQL, MySQL/MariaDB, H2)",
                        "ZooKeeper",
                        "In-memory");

        DistlockContexts.onSharedRedis()
                .run(context -> check("Redis: standalone, Sentinel, Cluster", table, context.getBean(Lock.class)));
        withoutRedis
                .withPropertyValues("distlock.backend=jdbc", "distlock.jdbc.create-table=true")
                .withBean(DataSource.class, LockKindsTableTest::h2)
                .run(context -> check("JDBC (PostgreSQL, MySQL/MariaDB, H2)", table, context.getBean(Lock.class)));
        withoutRedis
                .withPropertyValues("distlock.zookeeper.connect-string=" + zooKeeper.getConnectString())
                .run(context -> check("ZooKeeper", table, context.getBean(Lock.class)));
        withoutRedis
                .withPropertyValues("distlock.backend=in-memory")
                .run(context -> check("In-memory", table, context.getBean(Lock.class)));
        List<LettuceConnectionFactory> factories = new ArrayList<>();
        for (TestRedis node : redlockNodes) {
            LettuceConnectionFactory factory =
                    new LettuceConnectionFactory(new RedisStandaloneConfiguration(node.host(), node.port()));
            factory.afterPropertiesSet();
            factories.add(factory);
        }
        try (Redlock redlock = Redlock.builder(factories).build()) {
            check("Redlock", table, redlock);
        } finally {
            factories.forEach(LettuceConnectionFactory::destroy);
        }
    }

    private static void check(String backend, Map<String, List<String>> table, Lock lock) throws Exception {
        List<String> row = table.get(backend);
        String key = "kinds:" + UUID.randomUUID();
        if (offered(row, "Exclusive")) {
            try (LockHandle held = lock.tryAcquire(key, LEASE).orElseThrow()) {
                assertThat(held.isHeld()).as("%s: exclusive", backend).isTrue();
            }
        }
        if (offered(row, "Several keys at once")) {
            try (MultiLockHandle held = lock.tryAcquireAll(
                            List.of(key + ":a", key + ":b"), LEASE, Duration.ofSeconds(5))
                    .orElseThrow()) {
                assertThat(held.handles()).as("%s: several keys", backend).hasSize(2);
            }
        }
        for (Kind<?> kind : KINDS) {
            String column = switch (kind.annotationAttributes()) {
                case "fair = true" -> "Fair";
                case "read = true" -> "Read";
                case "permits = ..." -> "Semaphore";
                default -> "Path";
            };
            assertThat(lock.kind(kind).isPresent())
                    .as("%s: %s, as the table says '%s'", backend, kind, row.get(COLUMNS.indexOf(column)))
                    .isEqualTo(offered(row, column));
        }
    }

    private static boolean offered(List<String> row, String column) {
        String cell = row.get(COLUMNS.indexOf(column));
        assertThat(cell).as("a cell says yes or no").matches("(yes|no)\\b.*");
        return cell.startsWith("yes");
    }

    /** The rows of the table under "Which backend offers which kind": backend, then one cell per column. */
    private static Map<String, List<String>> table() throws Exception {
        List<String> lines = Files.readAllLines(ReadmeSnippets.readme()
                .resolveSibling("docs")
                .resolve("reference")
                .resolve("lock-kinds.md"));
        int heading = lines.indexOf("## Which backend offers which kind");
        assertThat(heading).as("the table's heading").isNotNegative();
        Map<String, List<String>> rows = new LinkedHashMap<>();
        int at = heading + 1;
        while (at < lines.size() && !lines.get(at).startsWith("|")) {
            at++;
        }
        List<String> header = cells(lines.get(at));
        assertThat(header.subList(1, header.size())).containsExactlyElementsOf(COLUMNS);
        for (at += 2; at < lines.size() && lines.get(at).startsWith("|"); at++) {
            List<String> cells = cells(lines.get(at));
            rows.put(cells.get(0), cells.subList(1, cells.size()));
        }
        return rows;
    }

    private static List<String> cells(String line) {
        List<String> cells = new ArrayList<>();
        for (String cell : line.substring(1, line.length() - 1).split("\\|")) {
            cells.add(cell.strip());
        }
        return cells;
    }

    private static DataSource h2() {
        return new SimpleDriverDataSource(
                new org.h2.Driver(), "jdbc:h2:mem:kinds-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
    }
}
