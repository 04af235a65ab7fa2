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
 * Every Java example of the README, and every distlock example of the migration guides (docs/migrating), compiles
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

        // The README has a dozen examples; finding none would pass without testing anything.
        assertThat(examples).hasSizeGreaterThanOrEqualTo(10);
        assertThat(errors)
                .as("examples of %s that do not compile:%n%s", readme, describe(errors))
                .isEmpty();
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
