package io.distlock.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.distlock.tck.SecretsStayOutOfOutput;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.SpringBootConfiguration;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * A Redlock node URL whose password has characters that a URL reserves ({@code /}, <code>{</code>, a space), as
 * generated tokens often do: however the URL fails start-up, no message, log line or start-up failure report shows the
 * password, whole or in part. Spring Boot's own report of an invalid property quotes the value it finds in the
 * environment, so the property's error must not be one it reports that way.
 */
@ExtendWith(OutputCaptureExtension.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RedlockUrlSecretsTest {

    private static final String PASSWORD = "pa/ss{ word";

    @RegisterExtension
    static final SecretsStayOutOfOutput SECRETS = new SecretsStayOutOfOutput(PASSWORD, "pa/ss", "{ word");

    @ParameterizedTest(name = "{0}")
    @CsvSource(
            delimiter = '|',
            value = {
                // java.net.URI refuses the '{' and the space, and quotes the whole URL in its message.
                "reserved characters, no user         | redis://:pa/ss{ word@localhost:7001       | localhost:7002",
                "reserved characters with a user      | redis://app:pa/ss{ word@localhost         | localhost:7002",
                // Percent-encoded, the URL is valid; the second node names the same server.
                "encoded, naming another node's server | redis://:pa%2Fss%7B%20word@localhost:7002 | localhost:7002"
            })
    void aNodeUrlWithAPasswordFailsStartUpWithoutShowingIt(
            String name, String url, String otherNode, CapturedOutput output) {
        Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(Application.class)
                .web(WebApplicationType.NONE)
                .properties(
                        "distlock.redlock.nodes[0].url=redis://" + otherNode,
                        "distlock.redlock.nodes[1].url=" + url,
                        "distlock.redlock.nodes[2].url=redis://localhost:7003")
                .run()
                .close());

        assertThat(failure).as(name).isNotNull();
        for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
            assertThat(String.valueOf(cause.getMessage())).doesNotContain("pa/ss", "{ word", "pa%2Fss", "%7B%20word");
        }
        assertThat(rootCause(failure).getMessage()).contains("distlock.redlock.nodes[1].url");
        assertThat(output.getOut())
                .contains("Invalid value 'redis://******@localhost")
                .contains("for configuration property 'distlock.redlock.nodes[1].url'");
    }

    private static Throwable rootCause(Throwable failure) {
        Throwable root = failure;
        while (root.getCause() != null) {
            root = root.getCause();
        }
        return root;
    }

    @SpringBootConfiguration
    @EnableAutoConfiguration
    static class Application {}
}
