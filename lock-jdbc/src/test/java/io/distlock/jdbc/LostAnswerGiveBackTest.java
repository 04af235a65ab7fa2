package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What an acquisition gives back when the answer to its take was lost: it knows its owner token but not the rows its
 * grant holds, so the read's slot and the path's holder and slot rows are found by that token, on H2.
 */
class LostAnswerGiveBackTest {

    private static final String TABLE = JdbcLeaseStore.DEFAULT_TABLE;
    private static final long LEASE_MILLIS = 30_000;

    private JdbcLeaseStore store;
    private ReadRows reads;
    private PathRows paths;
    private String key;

    @BeforeEach
    void rows() {
        DataSource dataSource = TestH2.dataSource("jdbc:h2:mem:give-back-" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
        store = JdbcLeaseStore.builder(dataSource).createTableIfMissing(true).build();
        Dialect dialect = Dialect.of("H2").orElseThrow();
        Connections connections = new Connections(dataSource);
        LockSql sql = LockSql.of(dialect, TABLE, true, false);
        StoreErrors errors = new StoreErrors("h2", dialect, TABLE, "H2");
        LockRows rows = new LockRows(connections, dialect, sql, errors, Duration.ofSeconds(5));
        reads = new ReadRows(rows, connections, errors, dialect, TABLE, sql);
        paths = new PathRows(rows, connections, errors, dialect, TABLE, sql);
        key = "give-back:" + UUID.randomUUID();
    }

    @Test
    void aReadWhoseAnswerWasLostIsFoundByItsOwnerAmongTheSlotsAndFreed() throws SQLException {
        assertThat(reads.take(key, "reader-1", "holder", LEASE_MILLIS)).isNotNull();
        assertThat(reads.take(key, "reader-2", "holder", LEASE_MILLIS)).isNotNull();

        assertThat(reads.releaseAny(key, "reader-2")).isTrue();
        assertThat(reads.releaseAny(key, "reader-2")).as("given back once").isFalse();
        assertThat(reads.releaseAny(key, "reader-1")).isTrue();

        try (var writer = store.begin(key, "writer", "holder", Duration.ofSeconds(30))) {
            assertThat(writer.tryTake())
                    .as("free once both reads are given back")
                    .isNotNull();
        }
    }

    @Test
    void aPathWhoseAnswerWasLostFreesItsHolderRowAndItsSlotUnderEachAncestor() throws SQLException {
        String tree = "tree:" + UUID.randomUUID();
        assertThat(paths.take(tree, List.of("a", "b", "c"), "lost", "holder", LEASE_MILLIS))
                .isNotNull();
        assertThat(paths.take(tree, List.of("a", "x"), "kept", "holder", LEASE_MILLIS))
                .isNotNull();

        assertThat(paths.releaseAny(tree, List.of("a", "b", "c"), "lost")).isTrue();

        assertThat(paths.take(tree, List.of("a", "b"), "taker", "holder", LEASE_MILLIS))
                .as("the path's parent, no longer below a hold")
                .isNotNull();
        assertThat(paths.take(tree, List.of("a"), "taker", "holder", LEASE_MILLIS))
                .as("the root of both, still below the kept hold")
                .isNull();
    }
}
