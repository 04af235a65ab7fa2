package io.distlock.autoconfigure.readme;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockLostException;
import io.distlock.autoconfigure.metrics.LockGaugesBinder;
import io.distlock.autoconfigure.metrics.MicrometerLockObserver;
import io.distlock.memory.InMemoryLeaseStore;
import io.distlock.monitor.LockKind;
import io.distlock.monitor.LockObserver;
import io.distlock.store.StoreLock;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The meter reference (the table of docs/reference/observability.md) is generated from the meters that distlock's
 * code registers: the test drives every event through {@link MicrometerLockObserver} and {@link LockGaugesBinder}
 * into a registry, and lists each meter's name, type, tags with the values they take, and the description the code
 * gives it. It fails when the page differs; {@code -Ddocs.write=true} writes the page instead.
 */
class MeterReferenceTest {

    static final String BEGIN = "<!-- The table below is generated from the meters distlock registers by "
            + "MeterReferenceTest: change a meter in the code, then run ./mvnw -pl lock-autoconfigure -am test "
            + "-Dtest=MeterReferenceTest -Dsurefire.failIfNoSpecifiedTests=false -Ddocs.write=true -->";
    static final String END = "<!-- End of the generated table. -->";

    /** Tags whose values come from the application's keys, listed without values. */
    private static final Map<String, String> OPEN_TAGS = Map.of("group", "the key group (see below)");

    @Test
    void theMeterReferenceListsTheMetersTheCodeRegisters() throws IOException {
        Path page = ReadmeSnippets.readme()
                .resolveSibling("docs")
                .resolve("reference")
                .resolve("observability.md");
        String text = Files.readString(page);
        int begin = text.indexOf(BEGIN);
        int end = text.indexOf(END);
        assertThat(begin).as("%s has the generated part's first marker", page).isNotNegative();
        assertThat(end).as("%s has the generated part's last marker", page).isGreaterThan(begin);

        String generated = BEGIN + "\n\n" + table(everyMeter()) + "\n" + END;
        String current = text.substring(begin, end + END.length());
        if (Boolean.getBoolean("docs.write") && !current.equals(generated)) {
            Files.writeString(page, text.substring(0, begin) + generated + text.substring(end + END.length()));
            return;
        }
        assertThat(current)
                .as(
                        "the meter reference of %s, against the meters the code registers; write it with "
                                + "-Ddocs.write=true",
                        page)
                .isEqualTo(generated);
    }

    /** Every meter, after every event with every value its tags can take. */
    private static List<Meter> everyMeter() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        LockObserver observer = new MicrometerLockObserver(registry, (key, kind) -> "stock");
        for (LockKind kind : LockKind.values()) {
            observer.acquisitionStarted("stock:1", kind).acquired();
            observer.acquisitionStarted("stock:1", kind).notAcquired();
            observer.acquisitionStarted("stock:1", kind).failed(new IllegalStateException("for the reference"));
            observer.holdStarted("stock:1", kind, 1).released();
            observer.holdStarted("stock:1", kind, 1).dropped();
            for (LockLostException.Reason reason : LockLostException.Reason.values()) {
                observer.holdStarted("stock:1", kind, 1).lost(reason);
            }
        }
        observer.renewed(1);
        observer.renewalFailed(1);
        observer.handedOver("stock:1");
        try (StoreLock lock = StoreLock.builder(new InMemoryLeaseStore()).build()) {
            new LockGaugesBinder(lock).bindTo(registry);
        }
        return registry.getMeters();
    }

    static String table(List<Meter> meters) {
        Map<String, Meter.Id> ids = new TreeMap<>();
        Map<String, Map<String, Set<String>>> tags = new TreeMap<>();
        for (Meter meter : meters) {
            Meter.Id id = meter.getId();
            ids.putIfAbsent(id.getName(), id);
            Map<String, Set<String>> values = tags.computeIfAbsent(id.getName(), name -> new TreeMap<>());
            for (Tag tag : id.getTags()) {
                values.computeIfAbsent(tag.getKey(), key -> new TreeSet<>()).add(tag.getValue());
            }
        }
        StringBuilder table = new StringBuilder("| Meter | Type | Tags | What it measures |\n|---|---|---|---|\n");
        ids.forEach((name, id) -> table.append("| `")
                .append(name)
                .append("` | ")
                .append(id.getType().name().toLowerCase(Locale.ROOT))
                .append(" | ")
                .append(tagCell(tags.get(name)))
                .append(" | ")
                .append(id.getDescription())
                .append(id.getBaseUnit() == null ? "" : " (in " + id.getBaseUnit() + ")")
                .append(". |\n"));
        return table.toString();
    }

    private static String tagCell(Map<String, Set<String>> tags) {
        List<String> parts = new ArrayList<>();
        tags.forEach((key, values) -> parts.add(
                OPEN_TAGS.containsKey(key)
                        ? "`" + key + "`: " + OPEN_TAGS.get(key)
                        : "`" + key + "`: "
                                + String.join(
                                        ", ",
                                        values.stream()
                                                .map(value -> "`" + value + "`")
                                                .toList())));
        return parts.isEmpty() ? "none" : String.join("; ", parts);
    }
}
