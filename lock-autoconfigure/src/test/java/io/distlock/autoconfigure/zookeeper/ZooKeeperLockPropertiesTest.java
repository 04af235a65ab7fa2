package io.distlock.autoconfigure.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/** The {@code distlock.zookeeper.*} properties: checked whenever lock-zookeeper is present, whichever the backend. */
class ZooKeeperLockPropertiesTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DistributedLockAutoConfiguration.class));

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "distlock.zookeeper.connect-string= | distlock.zookeeper.connect-string",
                "distlock.zookeeper.base-path=/ | distlock.zookeeper.base-path",
                "distlock.zookeeper.base-path=locks | distlock.zookeeper.base-path",
                "distlock.zookeeper.base-path=/locks/ | distlock.zookeeper.base-path",
                "distlock.zookeeper.base-path=/zookeeper/locks | distlock.zookeeper.base-path",
                "distlock.zookeeper.session-timeout=500ms | distlock.zookeeper.session-timeout",
                "distlock.zookeeper.call-timeout=50ms | distlock.zookeeper.call-timeout"
            })
    void invalidValuesFailStartUpNamingTheProperty(String property, String name) {
        runner.withPropertyValues(property)
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                        .hasMessageContaining(name));
    }
}
