package io.distlock.jdbc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

import io.distlock.store.LeaseStore;
import io.distlock.store.StoreLease;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import javax.sql.DataSource;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The path locks' rows on a real database ({@link JdbcLeaseStore#beginPath}): a hold keeps its ancestors through a slot
 * of each, a release frees them at once, and a hold whose holder died keeps them only until its lease ends.
 */
abstract class PathRowChecks {

    private static final Duration LONG = Duration.ofSeconds(30);

    private JdbcLeaseStore store;
    private String tree;

    /** The database under test. */
    abstract DataSource dataSource();

    @BeforeEach
    void newStore() {
        store = JdbcLeaseStore.builder(dataSource()).createTableIfMissing(true).build();
        tree = "tree:" + UUID.randomUUID();
    }

    @AfterEach
    void closeStore() {
        store.close();
    }

    @Test
    void aHoldWhoseHolderDiedKeepsItsAncestorsOnlyUntilItsLeaseEnds() {
        StoreLease dead = take("A/B/C", "dead", Duration.ofMillis(500));
        StoreLease sibling = take("A/B/D", "sibling", LONG);
        assertThat(sibling.release()).isTrue();
        assertThat(tryTake("A", "ancestor", LONG))
                .as("refused while the dead hold's lease runs")
                .isNull();

        StoreLease ancestor = await().atMost(Duration.ofSeconds(10))
                .pollInterval(Duration.ofMillis(20))
                .until(() -> tryTake("A", "ancestor", LONG), lease -> lease != null);

        assertThat(ancestor.fencingToken()).isGreaterThan(sibling.fencingToken());
        assertThat(dead.checkOwned()).isPresent();
        assertThat(dead.release()).as("a lease that ran out is not released").isFalse();
    }

    @Test
    void theLastReleaseBelowAnAncestorFreesItAtOnceWhateverTheOtherLeases() {
        StoreLease first = take("A/B", "first", LONG);
        StoreLease second = take("A/C/D", "second", LONG.multipliedBy(2));
        assertThat(second.release()).isTrue();
        assertThat(tryTake("A", "ancestor", LONG))
                .as("refused while one hold is below")
                .isNull();
        assertThat(first.extend(LONG)).isTrue();
        assertThat(first.release()).isTrue();

        StoreLease ancestor = take("A", "ancestor", LONG);
        assertThat(tryTake("A/C", "descendant", LONG))
                .as("refused while the ancestor holds")
                .isNull();
        assertThat(tryTake("", "whole tree", LONG))
                .as("refused while a path holds")
                .isNull();
        assertThat(ancestor.release()).isTrue();
        assertThat(first.release()).as("released once only").isFalse();
    }

    @Test
    void anExtendedHoldKeepsItsAncestorsPastItsFirstLease() {
        StoreLease held = take("A/B", "holder", Duration.ofMillis(500));
        assertThat(held.extend(LONG)).isTrue();

        await().during(Duration.ofSeconds(1))
                .atMost(Duration.ofSeconds(5))
                .until(() -> tryTake("A", "ancestor", LONG) == null);
        assertThat(held.checkOwned()).isEmpty();
        assertThat(held.release()).isTrue();
        take("A", "ancestor", LONG).release();
    }

    @Test
    void manyHoldsBelowOneNodeEachTakeASlotAndGiveItBack() {
        List<StoreLease> held = new ArrayList<>();
        for (int folder = 0; folder < 8; folder++) {
            held.add(take("root/folder" + folder, "holder" + folder, LONG));
        }
        assertThat(tryTake("root", "ancestor", LONG)).isNull();
        for (StoreLease lease : held.subList(0, 7)) {
            assertThat(lease.release()).isTrue();
        }
        assertThat(tryTake("root", "ancestor", LONG))
                .as("refused while the last is below")
                .isNull();
        StoreLease again = take("root/folder0", "again", LONG);
        assertThat(held.get(7).release()).isTrue();
        assertThat(again.release()).isTrue();
        take("root", "ancestor", LONG).release();
    }

    @Test
    void aTreeNameWithTheRowMarkOrATreeAndPathTooLongTogetherAreRefused() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> store.validatePath("a\u0001b", List.of("x")))
                .withMessageContaining("U+0001");
        String longName = "t".repeat(600);
        assertThatIllegalArgumentException()
                .isThrownBy(() -> store.validatePath(longName, List.of("p".repeat(600))))
                .withMessageContaining("at most");
    }

    private StoreLease take(String path, String owner, Duration lease) {
        StoreLease taken = tryTake(path, owner, lease);
        assertThat(taken).as("'%s' is free", path).isNotNull();
        return taken;
    }

    private @Nullable StoreLease tryTake(String path, String owner, Duration lease) {
        List<String> segments = path.isEmpty() ? List.of() : List.of(path.split("/"));
        try (LeaseStore.Acquisition acquisition = store.beginPath(tree, segments, owner, "holder", lease)) {
            return acquisition.tryTake();
        }
    }
}
