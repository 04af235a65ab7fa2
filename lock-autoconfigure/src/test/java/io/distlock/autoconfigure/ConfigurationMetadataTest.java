package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import com.jayway.jsonpath.JsonPath;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;

/**
 * The IDE metadata that the configuration processor writes for the {@code distlock.*} properties, whichever class binds
 * them: every property's name, type and default, each with a description.
 */
class ConfigurationMetadataTest {

    private static final String NODE = "io.distlock.autoconfigure.redis.RedlockProperties$Node";

    @Test
    void everyPropertyKeepsItsNameTypeAndDefault() throws IOException {
        List<Map<String, Object>> properties = JsonPath.read(metadata(), "$.properties[?(@.name =~ /distlock\\..*/)]");
        Map<String, String> described = new LinkedHashMap<>();
        for (Map<String, Object> property : properties) {
            assertThat(property.get("description"))
                    .as(property.get("name") + "'s description")
                    .isNotNull();
            described.put(
                    (String) property.get("name"),
                    property.get("type") + " = " + Objects.toString(property.get("defaultValue"), "unset"));
        }
        assertThat(described)
                .containsExactlyInAnyOrderEntriesOf(Map.ofEntries(
                        Map.entry("distlock.aspect.order", "java.lang.Integer = 2147483646"),
                        Map.entry("distlock.cluster.sharded-pub-sub", "java.lang.Boolean = unset"),
                        Map.entry("distlock.redis.cluster.sharded-pub-sub", "java.lang.Boolean = true"),
                        Map.entry("distlock.backend", "java.lang.String = unset"),
                        Map.entry("distlock.default-lease", "java.time.Duration = unset"),
                        Map.entry("distlock.default-wait", "java.time.Duration = 5s"),
                        Map.entry("distlock.enabled", "java.lang.Boolean = true"),
                        Map.entry("distlock.instance-name", "java.lang.String = unset"),
                        Map.entry("distlock.key-prefix", "java.lang.String = distlock:"),
                        Map.entry("distlock.leader.group", "java.lang.String = unset"),
                        Map.entry("distlock.leader.lease", "java.time.Duration = unset"),
                        Map.entry("distlock.metrics.enabled", "java.lang.Boolean = true"),
                        Map.entry("distlock.metrics.key-group-prefixes", "java.util.List<java.lang.String> = unset"),
                        Map.entry("distlock.metrics.max-groups", "java.lang.Integer = 100"),
                        Map.entry("distlock.observations.enabled", "java.lang.Boolean = true"),
                        Map.entry("distlock.on-lost", "io.distlock.OnLockLost = throw"),
                        Map.entry("distlock.replica-ack.replicas", "java.lang.Integer = unset"),
                        Map.entry("distlock.replica-ack.timeout", "java.time.Duration = unset"),
                        Map.entry("distlock.redis.delete-counters-unused-for", "java.time.Duration = unset"),
                        Map.entry("distlock.redis.local-handover-window", "java.time.Duration = unset"),
                        Map.entry("distlock.redis.replica-ack.replicas", "java.lang.Integer = 0"),
                        Map.entry("distlock.redis.replica-ack.timeout", "java.time.Duration = 100ms"),
                        Map.entry("distlock.shutdown.grace-period", "java.time.Duration = 10s"),
                        Map.entry("distlock.startup.prepare", "java.lang.Boolean = true"),
                        Map.entry("distlock.startup.timeout", "java.time.Duration = 10s"),
                        Map.entry("distlock.startup.warm-up-calls", "java.lang.Integer = 300"),
                        Map.entry("distlock.watchdog.lease", "java.time.Duration = 30s"),
                        Map.entry("distlock.watchdog.max-hold", "java.time.Duration = unset"),
                        Map.entry("distlock.watchdog.renew-interval", "java.time.Duration = unset"),
                        Map.entry("distlock.redlock.clock-drift-factor", "java.lang.Double = 0.01"),
                        Map.entry("distlock.redlock.connect-timeout", "java.time.Duration = 2s"),
                        Map.entry("distlock.redlock.nodes", "java.util.List<" + NODE + "> = unset"),
                        Map.entry("distlock.redlock.timeout", "java.time.Duration = 2s"),
                        Map.entry("distlock.jdbc.call-timeout", "java.time.Duration = 15s"),
                        Map.entry("distlock.jdbc.create-table", "java.lang.Boolean = false"),
                        Map.entry("distlock.jdbc.delete-rows-unused-for", "java.time.Duration = unset"),
                        Map.entry("distlock.jdbc.poll-max", "java.time.Duration = 100ms"),
                        Map.entry("distlock.jdbc.poll-min", "java.time.Duration = 10ms"),
                        Map.entry("distlock.jdbc.table-name", "java.lang.String = distlock_locks"),
                        Map.entry("distlock.zookeeper.base-path", "java.lang.String = /distlock"),
                        Map.entry("distlock.zookeeper.call-timeout", "java.time.Duration = 15s"),
                        Map.entry("distlock.zookeeper.connect-string", "java.lang.String = unset"),
                        Map.entry("distlock.zookeeper.session-timeout", "java.time.Duration = 10s"),
                        Map.entry("distlock.zookeeper.authorization.scheme", "java.lang.String = digest"),
                        Map.entry("distlock.zookeeper.authorization.credentials", "java.lang.String = unset"),
                        Map.entry("distlock.zookeeper.ssl.enabled", "java.lang.Boolean = false"),
                        Map.entry("distlock.zookeeper.ssl.trust-store-location", "java.lang.String = unset"),
                        Map.entry("distlock.zookeeper.ssl.trust-store-password", "java.lang.String = unset"),
                        Map.entry("distlock.zookeeper.ssl.trust-store-type", "java.lang.String = unset"),
                        Map.entry("distlock.zookeeper.ssl.key-store-location", "java.lang.String = unset"),
                        Map.entry("distlock.zookeeper.ssl.key-store-password", "java.lang.String = unset"),
                        Map.entry("distlock.zookeeper.ssl.key-store-type", "java.lang.String = unset")));
    }

    @Test
    void theEndpointsShowValuesAndRolesAreSpringBootsOwn() throws IOException {
        List<Map<String, Object>> properties =
                JsonPath.read(metadata(), "$.properties[?(@.name =~ /management\\.endpoint\\.distlock\\..*/)]");
        Map<String, String> described = new LinkedHashMap<>();
        for (Map<String, Object> property : properties) {
            assertThat(property.get("description"))
                    .as(property.get("name") + "'s description")
                    .isNotNull();
            described.put(
                    (String) property.get("name"),
                    property.get("type") + " = " + Objects.toString(property.get("defaultValue"), "unset"));
        }
        assertThat(described)
                .containsAllEntriesOf(Map.of(
                        "management.endpoint.distlock.show-values",
                        "org.springframework.boot.actuate.endpoint.Show = never",
                        "management.endpoint.distlock.roles",
                        "java.util.Set<java.lang.String> = unset"));
    }

    private static String metadata() throws IOException {
        try (InputStream json =
                ConfigurationMetadataTest.class.getResourceAsStream("/META-INF/spring-configuration-metadata.json")) {
            assertThat(json).as("the configuration processor's output").isNotNull();
            return new String(json.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
