package io.distlock.autoconfigure.readme;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every Java example of the README compiles against distlock and its starters as they are, so that an example can never
 * again fail to compile for a reader (as {@code PathLock folders = lock.tree(...)} did against the injected {@code
 * Lock} bean). How an example is wrapped: {@link ReadmeSnippets}.
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
}
