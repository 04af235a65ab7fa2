package io.distlock.autoconfigure.readme;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The reference site's navigation (mkdocs.yml) lists every page under docs, and only pages that exist, so that the
 * site, which {@code scripts/build-site} builds where MkDocs is installed, has no hidden page and no dead entry. The
 * default build has no MkDocs; this check stands in for the one the site build makes itself.
 */
class SiteNavigationTest {

    private static final Pattern NAV_PAGE = Pattern.compile("^\\s+- (?:[^:]+: )?\"?([\\w./-]+\\.md)\"?\\s*$");

    @Test
    void theNavigationListsEveryPageUnderDocsAndNoOther() throws IOException {
        Path root = ReadmeSnippets.readme().getParent();
        Path docs = root.resolve("docs");
        Set<String> listed = new TreeSet<>();
        boolean inNav = false;
        for (String line : Files.readAllLines(root.resolve("mkdocs.yml"))) {
            if (!line.startsWith(" ") && !line.isBlank()) {
                inNav = line.startsWith("nav:");
                continue;
            }
            Matcher page = NAV_PAGE.matcher(line);
            if (inNav && page.matches()) {
                listed.add(page.group(1));
            }
        }
        Set<String> pages = new TreeSet<>();
        try (Stream<Path> walked = Files.walk(docs)) {
            walked.filter(file -> file.toString().endsWith(".md"))
                    .forEach(file -> pages.add(docs.relativize(file).toString().replace('\\', '/')));
        }

        // Finding none would pass without checking anything.
        assertThat(listed).as("pages in the nav of mkdocs.yml").hasSizeGreaterThan(30);
        assertThat(listed).as("pages in the nav of mkdocs.yml").isEqualTo(pages);
    }
}
