package io.distlock.bench.docs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchmarkTablesTest {

    private static final String RUN = """
            {"format": 1, "date": "2026-11-29T16:00:00Z", "commit": "abc1234",
             "machine": "2 cores (AMD EPYC), Linux 6.1 amd64, 23.5 GiB RAM", "trials": 3, "trialSeconds": 1.0,
             "scenarios": [
              {"number": 3, "title": "Contended, one JVM", "held": 0, "contenders": [
                {"id": "distlock", "label": "distlock",
                 "trials": {"perSecond": [6000, 6400, 6200], "acquireP99Millis": [5.0, 6.0, 5.5]},
                 "processes": [], "requestsPerAcquisition": 1.0},
                {"id": "redisson", "label": "Redisson",
                 "trials": {"perSecond": [3000, 3100, 3400], "acquireP99Millis": [40.0, 41.0, null]},
                 "processes": []}]}]}
            """;

    @TempDir
    Path dir;

    @Test
    void aTableIsGeneratedFromItsDefinitionAndTheRun() throws IOException {
        Files.writeString(dir.resolve("results.json"), RUN);
        String page = """
                Before.

                <!-- benchmark table from results.json
                | | distlock | redisson | seeds |
                | 3. acquisitions/s | 3 perSecond /s range |
                | 3. over Redisson, paired | 3 perSecond paired redisson |
                | 3. over Redisson's median | 3 perSecond over redisson |
                | 3. p99 / requests | 3 acquireP99Millis ms / 3 requests n1 |
                -->
                stale figures
                <!-- end of benchmark table -->

                After.
                """;

        String generated = BenchmarkTables.generate(dir.resolve("page.md"), page);

        assertThat(generated).isEqualTo("""
                Before.

                <!-- benchmark table from results.json
                | | distlock | redisson | seeds |
                | 3. acquisitions/s | 3 perSecond /s range |
                | 3. over Redisson, paired | 3 perSecond paired redisson |
                | 3. over Redisson's median | 3 perSecond over redisson |
                | 3. p99 / requests | 3 acquireP99Millis ms / 3 requests n1 |
                -->

                | | distlock | Redisson | seeds |
                |---|---:|---:|---:|
                | 3. acquisitions/s | 6,200/s (6,000–6,400) | 3,100/s (3,000–3,400) | – |
                | 3. over Redisson, paired | 2.00x (1.82x–2.06x) | 1.00x (1.00x–1.00x) | – |
                | 3. over Redisson's median | 2.00x | 1.00x | – |
                | 3. p99 / requests | 5.50 ms / 1.0 | 40.5 ms / – | – / – |

                *Generated from the run of 2026-11-29 at commit abc1234 on 2 cores (AMD EPYC): medians of 3 trials of 1 s\
                 per contender ([all figures of the run](results.md)).*

                <!-- end of benchmark table -->

                After.
                """);
        assertThat(BenchmarkTables.generate(dir.resolve("page.md"), generated)).isEqualTo(generated);
    }

    @Test
    void aWrongDefinitionNamesThePageAndWhatIsAllowed() throws IOException {
        Files.writeString(dir.resolve("results.json"), RUN);
        String page = """
                <!-- benchmark table from results.json
                | | distlock |
                | 3. acquisitions/s | 3 perSecond per-second |
                -->
                <!-- end of benchmark table -->
                """;

        assertThatIllegalArgumentException()
                .isThrownBy(() -> BenchmarkTables.generate(dir.resolve("page.md"), page))
                .withMessageContaining("page.md: a benchmark table from results.json")
                .withMessageContaining("'per-second' in '3 perSecond per-second' is not a unit (count, /s, µs, ms, %,"
                        + " n1, n2), range, over <contender> or paired <contender>");
    }

    @Test
    void anUnknownFigureIsNamedWithTheKnownOnes() throws IOException {
        Files.writeString(dir.resolve("results.json"), RUN);
        String page = """
                <!-- benchmark table from results.json
                | | distlock |
                | 3. | 3 throughput /s |
                -->
                <!-- end of benchmark table -->
                """;

        assertThatIllegalArgumentException()
                .isThrownBy(() -> BenchmarkTables.generate(dir.resolve("page.md"), page))
                .withMessageContaining("no figure 'throughput' in the results; known: perSecond, acquireP99Millis");
    }
}
