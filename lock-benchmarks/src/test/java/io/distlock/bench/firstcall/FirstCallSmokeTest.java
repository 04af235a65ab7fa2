package io.distlock.bench.firstcall;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Runs the first-call measurement ({@link FirstCallMain}) with one fresh application per way on a standalone Redis, so
 * that the build notices when the program, its applications or its report break. It measures nothing worth keeping.
 */
@Timeout(value = 5, unit = TimeUnit.MINUTES)
class FirstCallSmokeTest {

    private static final Path OUTPUT = Path.of("target", "benchmark-smoke-first-call");

    @Test
    void everyWayStartsAnApplicationWhoseFirstAndSteadyCallsAreReported() throws Exception {
        Path report = FirstCallMain.run(List.of(Deployment.STANDALONE), 1, OUTPUT);

        String text = Files.readString(report);
        for (Way way : Way.values()) {
            assertThat(text)
                    .as(way.name())
                    .contains("| " + Deployment.STANDALONE.label() + " | " + way.label() + " | ");
        }
        assertThat(text).doesNotContain("NaN").doesNotContain("| 0 ms |");
    }
}
