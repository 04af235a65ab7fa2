package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * An application that changed nothing (Spring Boot's Redis defaults, among them its 60 s command timeout, and
 * distlock's 30 s watchdog lease) starts without a warning from distlock.
 */
@ExtendWith(OutputCaptureExtension.class)
class QuietStartTest {

    @Test
    void aDefaultApplicationStartsWithoutAWarningFromDistlock(CapturedOutput output) {
        DistlockContexts.onSharedRedis().run(context -> {
            assertThat(context).hasSingleBean(Lock.class);
            context.getBean(Lock.class)
                    .tryAcquire("quiet:" + System.nanoTime())
                    .orElseThrow()
                    .release();
        });

        List<String> warnings = output.getAll()
                .lines()
                .filter(line -> line.contains("WARN") && line.contains("i.d."))
                .toList();
        assertThat(warnings).isEmpty();
    }
}
