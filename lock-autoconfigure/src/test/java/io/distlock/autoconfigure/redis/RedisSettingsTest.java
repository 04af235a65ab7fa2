package io.distlock.autoconfigure.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.jayway.jsonpath.JsonPath;
import io.distlock.autoconfigure.DistributedLockProperties;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.context.properties.source.MapConfigurationPropertySource;

/**
 * The Redis backend's settings moved under {@code distlock.redis}; their former names still apply where the new ones
 * are not set, and the IDE metadata marks them deprecated, naming the replacement.
 */
class RedisSettingsTest {

    @Test
    void defaultsApplyWhenNothingIsSet() {
        RedisSettings settings = settings(Map.of());

        assertThat(settings.replicas()).isZero();
        assertThat(settings.acknowledgementTimeout()).isEqualTo(Duration.ofMillis(100));
        assertThat(settings.shardedPubSub()).isTrue();
    }

    @Test
    void theNewNamesApply() {
        RedisSettings settings = settings(Map.of(
                "distlock.redis.replica-ack.replicas", "1",
                "distlock.redis.replica-ack.timeout", "50ms",
                "distlock.redis.cluster.sharded-pub-sub", "false"));

        assertThat(settings.replicas()).isEqualTo(1);
        assertThat(settings.replicasProperty()).isEqualTo("distlock.redis.replica-ack.replicas");
        assertThat(settings.acknowledgementTimeout()).isEqualTo(Duration.ofMillis(50));
        assertThat(settings.shardedPubSub()).isFalse();
    }

    @Test
    void theDeprecatedNamesStillApplyWhereTheNewOnesAreNotSet() {
        RedisSettings settings = settings(Map.of(
                "distlock.replica-ack.replicas", "2",
                "distlock.replica-ack.timeout", "70ms",
                "distlock.cluster.sharded-pub-sub", "false"));

        assertThat(settings.replicas()).isEqualTo(2);
        assertThat(settings.replicasProperty()).isEqualTo("distlock.replica-ack.replicas");
        assertThat(settings.acknowledgementTimeout()).isEqualTo(Duration.ofMillis(70));
        assertThat(settings.shardedPubSub()).isFalse();
    }

    @Test
    void theNewNameWinsOverTheDeprecatedOne() {
        RedisSettings settings = settings(Map.of(
                "distlock.replica-ack.replicas", "2",
                "distlock.redis.replica-ack.replicas", "1",
                "distlock.cluster.sharded-pub-sub", "false",
                "distlock.redis.cluster.sharded-pub-sub", "true"));

        assertThat(settings.replicas()).isEqualTo(1);
        assertThat(settings.shardedPubSub()).isTrue();
    }

    @Test
    void anInvalidValueIsReportedUnderTheNameThatGaveIt() {
        assertThatThrownBy(() -> settings(Map.of("distlock.replica-ack.replicas", "-1")))
                .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                .hasMessageContaining("distlock.replica-ack.replicas");
        assertThatThrownBy(() -> settings(Map.of("distlock.redis.replica-ack.timeout", "0ms")))
                .isInstanceOf(InvalidConfigurationPropertyValueException.class)
                .hasMessageContaining("distlock.redis.replica-ack.timeout");
    }

    @Test
    void theMetadataMarksTheFormerNamesDeprecatedWithTheirReplacement() throws IOException {
        String metadata;
        try (InputStream in = getClass().getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            metadata = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        for (String former : List.of(
                "distlock.replica-ack.replicas", "distlock.replica-ack.timeout", "distlock.cluster.sharded-pub-sub")) {
            List<String> replacements =
                    JsonPath.read(metadata, "$.properties[?(@.name == '" + former + "')].deprecation.replacement");
            assertThat(replacements).as(former).containsExactly(former.replace("distlock.", "distlock.redis."));
        }
    }

    private static RedisSettings settings(Map<String, String> properties) {
        Binder binder = new Binder(new MapConfigurationPropertySource(properties));
        RedisLockProperties redis = binder.bindOrCreate("distlock.redis", RedisLockProperties.class);
        DistributedLockProperties deprecated = binder.bindOrCreate("distlock", DistributedLockProperties.class);
        return RedisSettings.of(redis, deprecated);
    }
}
