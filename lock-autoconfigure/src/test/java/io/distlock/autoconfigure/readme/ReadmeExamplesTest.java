package io.distlock.autoconfigure.readme;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java example of the README and of the documentation pages (docs), and every distlock example of the migration
 * guides (docs/migrating), compiles
 * against distlock and its starters as they are, so that an example can never again fail to compile for a reader (as
 * {@code PathLock folders = lock.tree(...)} did against the injected {@code Lock} bean). How an example is wrapped:
 * {@link ReadmeSnippets}.
 */
class ReadmeExamplesTest {

    @Test
    void everyJavaExampleOfTheReadmeCompiles(@TempDir Path classes) throws Exception {
        Path readme = ReadmeSnippets.readme();
        List<ReadmeSnippets.Snippet> examples = ReadmeSnippets.javaBlocks(Files.readAllLines(readme));

        List<ReadmeSnippets.Error> errors = ReadmeSnippets.compile(examples, classes);

        // Finding none would pass without testing anything.
        assertThat(examples).isNotEmpty();
        assertThat(errors)
                .as("examples of %s that do not compile:%n%s", readme, describe(errors))
                .isEmpty();
    }

    @Test
    void everyJavaExampleOfTheDocumentationPagesCompiles(@TempDir Path classes) throws Exception {
        Path docs = ReadmeSnippets.readme().resolveSibling("docs");
        List<Path> pages;
        try (Stream<Path> walked = Files.walk(docs)) {
            // The migration guides have a test of their own; the benchmark results are written by the harness.
            pages = walked.filter(file -> file.toString().endsWith(".md"))
                    .filter(file -> !file.startsWith(docs.resolve("migrating")))
                    .filter(file -> !file.startsWith(docs.resolve("benchmarks")))
                    .sorted()
                    .toList();
        }
        int compiled = 0;
        for (Path page : pages) {
            List<ReadmeSnippets.Snippet> examples = ReadmeSnippets.javaBlocks(Files.readAllLines(page));
            if (examples.isEmpty()) {
                continue;
            }
            List<ReadmeSnippets.Error> errors = ReadmeSnippets.compile(
                    examples,
                    Files.createDirectories(classes.resolve(
                            docs.relativize(page).toString().replace('/', '-').replace(".md", ""))));
            assertThat(errors)
                    .as("examples of %s that do not compile:%n%s", page, describe(page, errors))
                    .isEmpty();
            compiled += examples.size();
        }
        // The pages have a dozen examples and more; finding fewer would mean the pages or the reading moved.
        assertThat(compiled).as("Java examples under %s", docs).isGreaterThanOrEqualTo(10);
    }

    @Test
    void everyDistlockExampleOfTheMigrationGuidesCompiles(@TempDir Path classes) throws Exception {
        Path guides = ReadmeSnippets.readme().resolveSibling("docs").resolve("migrating");
        List<Path> files;
        try (Stream<Path> listed = Files.list(guides)) {
            files = listed.filter(file -> file.toString().endsWith(".md"))
                    .filter(file -> !file.getFileName().toString().equals("README.md"))
                    .sorted()
                    .toList();
        }
        assertThat(files).as("migration guides in %s", guides).hasSizeGreaterThanOrEqualTo(4);

        for (Path guide : files) {
            // The peer's code is fenced as "java before" and never compiled; distlock's is fenced as "java".
            List<ReadmeSnippets.Snippet> examples = ReadmeSnippets.javaBlocks(Files.readAllLines(guide));
            List<ReadmeSnippets.Error> errors =
                    ReadmeSnippets.compile(examples, Files.createDirectories(classes.resolve(name(guide))));

            assertThat(examples).as("distlock examples in %s", guide).isNotEmpty();
            assertThat(errors)
                    .as("examples of %s that do not compile:%n%s", guide, describe(guide, errors))
                    .isEmpty();
        }
    }

    @Test
    void anExampleThatDoesNotCompileIsReportedWithItsLineAndTheCompilersMessage(@TempDir Path classes)
            throws Exception {
        List<String> markdown = List.of(
                "# A README",
                "",
                "```java",
                "Lock folders = lock.tree(\"project:\" + projectId);",
                "PathLock broken = lock.tree(\"project:\" + projectId);",
                "try (LockHandle held = folders.acquire(\"A/C\", lease)) { ... }",
                "",
                "@DistributedLock(key = \"'stock:' + #sku\")",
                "public int deduct(String sku, int quantity) { ... }",
                "```");

        List<ReadmeSnippets.Error> errors = ReadmeSnippets.compile(ReadmeSnippets.javaBlocks(markdown), classes);

        assertThat(errors).singleElement().satisfies(error -> {
            assertThat(error.line()).isEqualTo(5);
            assertThat(error.message()).contains("incompatible types").contains("PathLock");
            assertThat(error.code()).isEqualTo("PathLock broken = lock.tree(\"project:\" + projectId);");
        });
    }

    private static String describe(List<ReadmeSnippets.Error> errors) {
        return errors.stream().map(error -> "README.md " + error).collect(Collectors.joining("\n"));
    }

    private static String describe(Path guide, List<ReadmeSnippets.Error> errors) {
        return errors.stream().map(error -> guide.getFileName() + " " + error).collect(Collectors.joining("\n"));
    }

    private static String name(Path guide) {
        return guide.getFileName().toString().replace(".md", "");
    }
}
