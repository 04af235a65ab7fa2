package io.distlock.autoconfigure.readme;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Every link between the repository's Markdown pages resolves: the file it names exists, and so does the heading its
 * {@code #anchor} names, as GitHub derives anchors from headings. Links to other sites are not followed. And every page
 * under docs is reachable from the documentation's index.
 */
class DocumentationLinksTest {

    private static final Pattern LINK = Pattern.compile("\\]\\(([^)\\s]+)\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6} (.*)$");

    @Test
    void everyLinkBetweenPagesResolvesToAFileAndHeading() throws IOException {
        Path root = ReadmeSnippets.readme().getParent();
        List<String> broken = new ArrayList<>();
        for (Path page : pages(root)) {
            List<String> lines = Files.readAllLines(page);
            boolean fenced = false;
            for (int i = 0; i < lines.size(); i++) {
                String line = lines.get(i);
                if (line.startsWith("```")) {
                    fenced = !fenced;
                    continue;
                }
                if (fenced) {
                    continue;
                }
                Matcher link = LINK.matcher(line);
                while (link.find()) {
                    String problem = problem(page, link.group(1));
                    if (problem != null) {
                        broken.add(root.relativize(page) + ":" + (i + 1) + " " + link.group(1) + ": " + problem);
                    }
                }
            }
        }
        assertThat(broken).as("broken links").isEmpty();
    }

    @Test
    void everyPageUnderDocsIsReachableFromTheIndex() throws IOException {
        Path docs = ReadmeSnippets.readme().resolveSibling("docs");
        Set<Path> reached = new HashSet<>();
        List<Path> next = new ArrayList<>(List.of(docs.resolve("README.md")));
        while (!next.isEmpty()) {
            Path page = next.remove(next.size() - 1);
            if (!reached.add(page)) {
                continue;
            }
            Matcher link = LINK.matcher(Files.readString(page));
            while (link.find()) {
                String target = link.group(1).split("#", 2)[0];
                if (!target.isEmpty() && !isExternal(target) && target.endsWith(".md")) {
                    Path linked = page.resolveSibling(target).normalize();
                    if (linked.startsWith(docs) && Files.isRegularFile(linked)) {
                        next.add(linked);
                    }
                }
            }
        }
        List<Path> unreached;
        try (Stream<Path> all = Files.walk(docs)) {
            unreached = all.filter(file -> file.toString().endsWith(".md"))
                    .filter(file -> !reached.contains(file))
                    .map(docs::relativize)
                    .sorted()
                    .toList();
        }
        assertThat(unreached)
                .as("pages under docs that no link leads to from docs/README.md")
                .isEmpty();
    }

    /** Why a link does not resolve, or null when it does. */
    private static String problem(Path page, String target) throws IOException {
        if (isExternal(target)) {
            return null;
        }
        String[] parts = target.split("#", 2);
        Path file = parts[0].isEmpty() ? page : page.resolveSibling(parts[0]).normalize();
        if (!Files.exists(file)) {
            return "no such file";
        }
        if (parts.length == 1 || !file.toString().endsWith(".md")) {
            return null;
        }
        return anchors(file).contains(parts[1]) ? null : "no heading with that anchor in " + file.getFileName();
    }

    /** The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as dashes. */
    static Set<String> anchors(Path page) throws IOException {
        Set<String> anchors = new HashSet<>();
        boolean fenced = false;
        for (String line : Files.readAllLines(page)) {
            if (line.startsWith("```")) {
                fenced = !fenced;
                continue;
            }
            Matcher heading = HEADING.matcher(line);
            if (!fenced && heading.matches()) {
                String base = heading.group(1)
                        .strip()
                        .toLowerCase(Locale.ROOT)
                        .replaceAll("[^\\p{L}\\p{N}_\\- ]", "")
                        .replace(' ', '-');
                String anchor = base;
                for (int n = 1; !anchors.add(anchor); n++) {
                    anchor = base + "-" + n;
                }
            }
        }
        return anchors;
    }

    private static boolean isExternal(String target) {
        return target.matches("^[a-zA-Z][a-zA-Z0-9+.-]*:.*");
    }

    private static List<Path> pages(Path root) throws IOException {
        try (Stream<Path> all = Files.walk(root)) {
            return all.filter(file -> file.toString().endsWith(".md"))
                    .filter(file -> root.relativize(file).toString().split("/").length > 0)
                    .filter(file -> {
                        String relative = root.relativize(file).toString();
                        return !relative.contains("target/")
                                && !relative.contains("node_modules/")
                                && !relative.startsWith(".");
                    })
                    .sorted()
                    .toList();
        }
    }
}
