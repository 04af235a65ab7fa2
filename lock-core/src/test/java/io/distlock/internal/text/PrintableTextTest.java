package io.distlock.internal.text;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Keys made safe for a log line: what could end a line or disguise it is escaped, everything else kept. */
class PrintableTextTest {

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "order:7\\r\\nERROR forged | order:7\\r\\nERROR forged",
                "tab\\there            | tab\\there",
                "nul\\u0000bell\\u0007 | nul\\u0000bell\\u0007",
                "next\\u0085line      | next\\u0085line",
                "line\\u2028para\\u2029 | line\\u2028para\\u2029",
                "override\\u202Etxt.exe | override\\u202Etxt.exe"
            })
    void controlSeparatorAndFormatCharactersAreEscaped(String escapedInput, String expected) {
        assertThat(PrintableText.of(unescape(escapedInput))).isEqualTo(expected);
    }

    @Test
    void ordinaryTextIsKeptAsItIsAndTheSameInstanceComesBack() {
        String key = "stock:Größe 42/ünïcødé 🚀 {x} \\ back";
        assertThat(PrintableText.of(key)).isSameAs(key);
    }

    @Test
    void nullAndObjectsAreWrittenAsTheirText() {
        assertThat(PrintableText.of(null)).isEqualTo("null");
        assertThat(PrintableText.of(java.util.List.of("a\nb"))).isEqualTo("[a\\nb]");
    }

    /** The test's own notation for characters that a CSV source cannot hold: \r, \n, \t and \\uXXXX. */
    private static String unescape(String text) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\\') {
                out.append(c);
            } else if (text.charAt(i + 1) == 'u') {
                out.append((char) Integer.parseInt(text.substring(i + 2, i + 6), 16));
                i += 5;
            } else {
                out.append(
                        switch (text.charAt(i + 1)) {
                            case 'r' -> '\r';
                            case 'n' -> '\n';
                            default -> '\t';
                        });
                i++;
            }
        }
        return out.toString();
    }
}
