package io.distlock.autoconfigure.readme;

import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import java.io.IOException;
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
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        EveryMeterEvent.recordInto(registry, any -> {});
        Path page = ReadmeSnippets.readme()
                .resolveSibling("docs")
                .resolve("reference")
                .resolve("observability.md");

        GeneratedSection.check(page, BEGIN, END, table(registry.getMeters()));
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
