package io.distlock.autoconfigure.readme;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A part of a documentation page that a test generates, between two marker lines: the test fails when the page's part
 * differs from what it generates, and writes the part instead when run with {@code -Ddocs.write=true}.
 */
final class GeneratedSection {

    private GeneratedSection() {}

    /**
     * Checks, or with {@code -Ddocs.write=true} writes, the part of {@code page} from {@code begin} to {@code end}.
     *
     * @param page the page
     * @param begin the first marker line, which says how the part is generated
     * @param end the last marker line
     * @param generated what belongs between the markers
     */
    static void check(Path page, String begin, String end, String generated) throws IOException {
        String text = Files.readString(page);
        int from = text.indexOf(begin);
        int to = text.indexOf(end);
        assertThat(from).as("%s has the generated part's first marker", page).isNotNegative();
        assertThat(to).as("%s has the generated part's last marker", page).isGreaterThan(from);

        String expected = begin + "\n\n" + generated + "\n" + end;
        String current = text.substring(from, to + end.length());
        if (Boolean.getBoolean("docs.write") && !current.equals(expected)) {
            Files.writeString(page, text.substring(0, from) + expected + text.substring(to + end.length()));
            return;
        }
        assertThat(current)
                .as("the generated part of %s; write it with -Ddocs.write=true", page)
                .isEqualTo(expected);
    }
}
