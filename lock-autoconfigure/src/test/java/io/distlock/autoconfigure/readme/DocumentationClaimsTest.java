package io.distlock.autoconfigure.readme;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * No page of the documentation (the README, and every Markdown page under docs) says that a feature is missing when
 * the API has it: the sentences of {@link RetractedClaims}, which pages said before the feature arrived.
 */
class DocumentationClaimsTest {

    @Test
    void noPageSaysAFeatureIsMissingThatTheApiHas() throws IOException {
        Path readme = ReadmeSnippets.readme();
        List<Path> pages = new ArrayList<>(List.of(readme));
        try (Stream<Path> docs = Files.walk(readme.resolveSibling("docs"))) {
            docs.filter(file -> file.toString().endsWith(".md")).sorted().forEach(pages::add);
        }
        assertThat(pages).hasSizeGreaterThan(5);

        List<String> claims = new ArrayList<>();
        for (Path page : pages) {
            for (String claim : RetractedClaims.madeIn(Files.readAllLines(page))) {
                claims.add(readme.getParent().relativize(page) + ", " + claim);
            }
        }

        assertThat(claims)
                .as("pages that call a feature missing which the API has")
                .isEmpty();
    }

    /** The sentences the migration guides said before their features arrived, each caught by the check. */
    @Test
    void theSentencesThatWereFixedAreCaughtWhenPutBack() {
        List<String> formerly = List.of(
                "attribute, and one ShedLock feature, the minimum hold time, does not exist yet.",
                "| `defaultLockAtLeastFor` | none yet | See \"What behaves differently\". |",
                "| `lockAtLeastFor = \"5m\"` | none yet | |",
                "- **No minimum hold time yet.** distlock has nothing like `lockAtLeastFor`: the lock is released as soon",
                "- **No \"skip quietly\" mode.** A busy lock makes an annotated method throw `LockNotAcquiredException`",
                "| `lockAtMostFor = \"30m\"` | `leaseSeconds = 1800` | Whole seconds as a number: no `\"30m\"` text. |",
                "- **Leases and waits are whole seconds, written as numbers.** `leaseSeconds` (1 to 86400) and",
                "| `LockRegistryLeaderInitiator` | none yet | See \"What behaves differently\". |",
                "| `DefaultLockRegistry` (in memory) | none yet | |",
                "- **No leader election and no in-memory lock yet.** distlock has no counterpart to",
                "- **No in-memory `Lock` yet.** Tests run against a real Redis, or set `distlock.enabled=false` to run");

        for (String sentence : formerly) {
            assertThat(RetractedClaims.madeIn(List.of("# A guide", "", sentence)))
                    .as(sentence)
                    .isNotEmpty()
                    .allSatisfy(claim -> assertThat(claim).startsWith("line 3 says "));
        }
        assertThat(RetractedClaims.madeIn(List.of("`holdAtLeast = \"5m\"` keeps the key for 5 minutes.")))
                .isEmpty();
    }
}
