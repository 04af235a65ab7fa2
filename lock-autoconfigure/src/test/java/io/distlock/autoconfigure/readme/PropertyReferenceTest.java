package io.distlock.autoconfigure.readme;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The property reference (docs/reference/properties.md) is generated from the configuration metadata that the
 * properties' javadoc becomes, which is also what an IDE shows: every {@code distlock.*} property with its type, default
 * and description, the values an IDE offers, and the deprecated names with their replacements. The test fails when
 * the page differs from the metadata; {@code -Ddocs.write=true} writes the page instead.
 */
class PropertyReferenceTest {

    static final String BEGIN = "<!-- The tables below are generated from the configuration metadata by "
            + "PropertyReferenceTest: edit a property's javadoc, then run ./mvnw -pl lock-autoconfigure -am test "
            + "-Dtest=PropertyReferenceTest -Dsurefire.failIfNoSpecifiedTests=false -Ddocs.write=true -->";
    static final String END = "<!-- End of the generated tables. -->";

    @Test
    void thePropertyReferenceListsWhatTheMetadataHas() throws IOException {
        Path page = ReadmeSnippets.readme()
                .resolveSibling("docs")
                .resolve("reference")
                .resolve("properties.md");

        GeneratedSection.check(page, BEGIN, END, tables(metadata()));
    }

    /** The tables of the page: the properties, then their deprecated names. */
    static String tables(String metadata) {
        List<Map<String, Object>> properties =
                new ArrayList<>(JsonPath.read(metadata, "$.properties[?(@.name =~ /distlock\\..*/)]"));
        properties.sort(Comparator.comparing(property -> (String) property.get("name")));
        StringBuilder current = new StringBuilder("| Property | Type | Default | Description |\n|---|---|---|---|\n");
        StringBuilder deprecated = new StringBuilder("| Deprecated property | Replacement |\n|---|---|\n");
        for (Map<String, Object> property : properties) {
            String name = (String) property.get("name");
            if (property.get("deprecation") != null) {
                Object replacement = JsonPath.read(property, "$.deprecation.replacement");
                deprecated
                        .append("| `")
                        .append(name)
                        .append("` | `")
                        .append(replacement)
                        .append("` |\n");
                continue;
            }
            current.append("| `")
                    .append(name)
                    .append("` | ")
                    .append(type((String) property.get("type")))
                    .append(" | ")
                    .append(property.get("defaultValue") == null ? "unset" : "`" + property.get("defaultValue") + "`")
                    .append(" | ")
                    .append(cell(Objects.toString(property.get("description"), "")))
                    .append(values(metadata, name))
                    .append(" |\n");
        }
        return current + "\n" + deprecated;
    }

    private static String values(String metadata, String name) {
        List<Object> values = JsonPath.read(metadata, "$.hints[?(@.name == '" + name + "')].values[*].value");
        if (values.isEmpty()) {
            return "";
        }
        List<String> quoted = values.stream().map(value -> "`" + value + "`").toList();
        return " Values an IDE offers: " + String.join(", ", quoted) + ".";
    }

    /** A type as a reader knows it: its simple name, and the simple names of its type arguments. */
    private static String type(String type) {
        return "`" + type.replaceAll("[\\w.]+\\.(?=\\w)", "").replace('$', '.') + "`";
    }

    private static String cell(String description) {
        return description
                .replace("|", "\\|")
                .replace("<", "&lt;")
                .replace(">", "&gt;")
                .replace("\n", " ");
    }

    private static String metadata() throws IOException {
        try (InputStream in =
                PropertyReferenceTest.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(in).as("lock-autoconfigure's configuration metadata").isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
