package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.distlock.DistributedLock;
import io.distlock.tck.SecretsStayOutOfOutput;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A key, tree or path that comes out null, blank or invalid for one call: the error names the method, the expression,
 * and the method's parameters by position and type, but never the value of an argument, which may be a password or
 * personal data that a client sent.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class InvalidKeyMessagesTest {

    private static final String SECRET = "hunter2-in-the-logs";

    @RegisterExtension
    static final SecretsStayOutOfOutput SECRETS = new SecretsStayOutOfOutput(SECRET);

    private final ApplicationContextRunner runner =
            DistlockContexts.onSharedRedis().withBean(Accounts.class);

    @Test
    void aBlankKeyNamesTheParametersButNoArgument() {
        assertRefused(
                accounts -> accounts.withdraw(SECRET, " "),
                "@DistributedLock key of",
                "Accounts.withdraw(String, String)",
                "evaluated to a blank key",
                "expression \"#account\" over the parameters [0: String secret, 1: String account]");
    }

    @Test
    void aNullKeyAmongSeveralNamesTheParametersButNoArgument() {
        assertRefused(
                accounts -> accounts.transfer(SECRET, java.util.Arrays.asList("a", null)),
                "@DistributedLock keys[0] of",
                "gave a null key",
                "over the parameters [0: String secret, 1: List accounts]");
    }

    @Test
    void aBlankTreeNamesTheParametersButNoArgument() {
        assertRefused(
                accounts -> accounts.editFolder(SECRET, "\t", "a"),
                "@DistributedLock tree of",
                "evaluated to a blank tree name",
                "over the parameters [0: String secret, 1: String owner, 2: String folder]");
    }

    @Test
    void aNullPathNamesTheParametersButNoArgument() {
        assertRefused(
                accounts -> accounts.editFolder(SECRET, "owner", null),
                "@DistributedLock path of",
                "evaluated to null",
                "over the parameters [0: String secret, 1: String owner, 2: String folder]");
    }

    @Test
    void aRefusedPathNamesItselfAndTheParametersButNoArgument() {
        assertRefused(
                accounts -> accounts.editFolder(SECRET, "owner", "a//b"),
                "@DistributedLock path of",
                "gave the path \"a//b\"",
                "over the parameters [0: String secret, 1: String owner, 2: String folder]");
    }

    private void assertRefused(Consumer<Accounts> call, String... parts) {
        runner.run(context -> {
            Throwable refused = catchThrowable(() -> call.accept(context.getBean(Accounts.class)));
            assertThat(refused).isInstanceOf(IllegalArgumentException.class);
            assertThat(refused.getMessage())
                    .contains(parts)
                    .contains("the method did not run")
                    .doesNotContain(SECRET);
            // Whoever catches it logs it, as an application's error handler would.
            org.slf4j.LoggerFactory.getLogger(InvalidKeyMessagesTest.class).warn("Request failed", refused);
        });
    }

    /** A service whose methods take a secret beside the values their locks are named by. */
    static class Accounts {

        @DistributedLock(key = "#account")
        public void withdraw(String secret, String account) {}

        @DistributedLock(keys = "#accounts")
        public void transfer(String secret, List<String> accounts) {}

        @DistributedLock(tree = "#owner", path = "#folder")
        public void editFolder(String secret, String owner, String folder) {}
    }
}
