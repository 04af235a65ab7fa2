package io.distlock.tck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.platform.engine.discovery.DiscoverySelectors.selectMethod;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;
import org.junit.platform.launcher.listeners.SummaryGeneratingListener;
import org.junit.platform.launcher.listeners.TestExecutionSummary;

/** The check itself: a test whose output shows a secret, plainly or URL-encoded, fails; one whose output does not, passes. */
class SecretsStayOutOfOutputTest {

    @Test
    void aSecretInTheOutputFailsTheTestWithoutRepeatingIt() {
        for (String leaky : List.of("printsTheSecret", "printsTheSecretUrlEncoded", "logsTheSecretFromAnotherThread")) {
            TestExecutionSummary summary = run(leaky);

            assertThat(summary.getTotalFailureCount()).as(leaky).isEqualTo(1);
            Throwable failure = summary.getFailures().get(0).getException();
            assertThat(failure).isInstanceOf(AssertionError.class).hasMessageContaining("a secret (");
            assertThat(failure.getMessage()).doesNotContain("pa/ss", "pa%2Fss");
        }
    }

    @Test
    void outputWithoutTheSecretPasses() {
        assertThat(run("printsSomethingElse").getTestsSucceededCount()).isEqualTo(1);
    }

    private static TestExecutionSummary run(String method) {
        SummaryGeneratingListener listener = new SummaryGeneratingListener();
        LauncherFactory.create()
                .execute(
                        LauncherDiscoveryRequestBuilder.request()
                                .selectors(selectMethod(Watched.class, method))
                                .build(),
                        listener);
        return listener.getSummary();
    }

    /** Run only by the launcher above. */
    static class Watched {

        @RegisterExtension
        static final SecretsStayOutOfOutput SECRETS = new SecretsStayOutOfOutput("pa/ss {word");

        @Test
        void printsTheSecret() {
            System.out.println("connecting with pa/ss {word");
        }

        @Test
        void printsTheSecretUrlEncoded() {
            System.err.println("redis://:pa%2Fss%20%7Bword@redis-a");
        }

        @Test
        void logsTheSecretFromAnotherThread() throws InterruptedException {
            Thread other = new Thread(() -> System.out.println("pa/ss {word"));
            other.start();
            other.join();
        }

        @Test
        void printsSomethingElse() {
            System.out.println("redis://******@redis-a");
        }
    }
}
