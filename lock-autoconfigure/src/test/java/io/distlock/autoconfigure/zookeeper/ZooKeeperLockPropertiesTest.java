package io.distlock.autoconfigure.zookeeper;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.autoconfigure.internal.SecretPropertyException;
import org.junit.jupiter.api.Test;
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
                "distlock.zookeeper.call-timeout=50ms | distlock.zookeeper.call-timeout",
                "distlock.zookeeper.authorization.scheme= | distlock.zookeeper.authorization.scheme",
                "distlock.zookeeper.ssl.trust-store-location=/etc/zk/ca.pem | distlock.zookeeper.ssl.enabled",
                "distlock.zookeeper.ssl.enabled=true | distlock.zookeeper.ssl.enabled"
            })
    void invalidValuesFailStartUpNamingTheProperty(String property, String name) {
        runner.withPropertyValues(property)
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                        .hasMessageContaining(name));
    }

    @ParameterizedTest
    @CsvSource(
            delimiter = '|',
            value = {
                "zk-s3cret-without-user | must be user:password",
                "orders: | must be user:password",
                ":zk-s3cret | must be user:password",
                "' ' | must not be empty"
            })
    void invalidCredentialsFailStartUpNamingThePropertyButNotTheCredentials(String credentials, String reason) {
        runner.withPropertyValues(
                        "distlock.zookeeper.connect-string=localhost:2181",
                        "distlock.zookeeper.authorization.credentials=" + credentials)
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .isInstanceOf(SecretPropertyException.class)
                        .hasMessageContaining("distlock.zookeeper.authorization.credentials")
                        .hasMessageContaining(reason)
                        .hasMessageNotContaining("s3cret"));
    }

    @Test
    void authorizationWithoutDistlocksOwnClientFailsStartUpNamingWhatToDoInstead() {
        runner.withPropertyValues("distlock.zookeeper.authorization.credentials=orders:zk-s3cret")
                .run(context -> assertThat(context)
                        .getFailure()
                        .rootCause()
                        .hasMessageContaining("distlock.zookeeper.connect-string")
                        .hasMessageContaining("ACLProvider")
                        .hasMessageNotContaining("s3cret"));
    }
}
