package io.distlock.test.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.distlock.test.redis.TestRedis.Provider;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(30)
class ProviderSelectionTest {

    @Test
    void withoutDockerThePathServerIsChosenWithoutSlowProbing() {
        assumeTrue(DockerEngine.hint().isEmpty(), "this machine may have a Docker engine");
        assumeTrue(PathLookup.find("redis-server").isPresent(), "this machine has no redis-server on PATH");

        long start = System.nanoTime();
        ProviderSelection.Choice choice = ProviderSelection.automaticChoice();
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        assertThat(choice.provider()).isEqualTo(Provider.PATH);
        assertThat(choice.reason()).contains("no Docker engine", "redis-server");
        assertThat(took).isLessThan(Duration.ofSeconds(2));
    }

    @Test
    void serversUseTheDefaultProvider() {
        try (TestRedis redis = TestRedis.start()) {
            assertThat(redis.provider()).isEqualTo(TestRedis.defaultProvider());
        }
    }

    @Test
    void forcedNamesAreCaseInsensitive() {
        assertThat(ProviderSelection.parse("testcontainers")).isEqualTo(Provider.TESTCONTAINERS);
        assertThat(ProviderSelection.parse(" Path ")).isEqualTo(Provider.PATH);
        assertThat(ProviderSelection.parse("EMBEDDED")).isEqualTo(Provider.EMBEDDED);
        assertThatThrownBy(() -> ProviderSelection.parse("docker"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("testcontainers, path, embedded");
    }
}
