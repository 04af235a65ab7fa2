package io.distlock.autoconfigure.redis;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.ConfigurationPropertyState;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.core.env.Environment;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * Matches when any {@code distlock.redlock.nodes} property is set, whatever its value. A node that is set but invalid,
 * such as one without a URL, still counts, so that start-up fails naming it rather than silently falling back to the
 * lock on {@code spring.data.redis}.
 */
class OnRedlockNodesCondition extends SpringBootCondition {

    private static final ConfigurationPropertyName NODES = ConfigurationPropertyName.of("distlock.redlock.nodes");

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        boolean configured = configured(context.getEnvironment());
        return configured != negated()
                ? ConditionOutcome.match("distlock.redlock.nodes is " + (configured ? "set" : "not set"))
                : ConditionOutcome.noMatch("distlock.redlock.nodes is " + (configured ? "set" : "not set"));
    }

    boolean negated() {
        return false;
    }

    /** Whether any {@code distlock.redlock.nodes} property is set in the environment. */
    static boolean configured(Environment environment) {
        for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
            ConfigurationProperty nodes = source.getConfigurationProperty(NODES);
            if ((nodes != null && !String.valueOf(nodes.getValue()).isBlank())
                    || source.containsDescendantOf(NODES) == ConfigurationPropertyState.PRESENT) {
                return true;
            }
        }
        return false;
    }

    /** Matches when no {@code distlock.redlock.nodes} property is set. */
    static final class None extends OnRedlockNodesCondition {

        @Override
        boolean negated() {
            return true;
        }
    }
}
