package io.distlock.autoconfigure;

import org.springframework.boot.autoconfigure.condition.ConditionOutcome;
import org.springframework.boot.autoconfigure.condition.SpringBootCondition;
import org.springframework.context.annotation.ConditionContext;
import org.springframework.context.annotation.ConfigurationCondition;
import org.springframework.core.type.AnnotatedTypeMetadata;

/**
 * The condition of {@link ConditionalOnLockBackend}. It looks at bean definitions, so it is evaluated when beans are
 * registered, after the auto-configurations that define the connections.
 */
class OnLockBackendCondition extends SpringBootCondition implements ConfigurationCondition {

    @Override
    public ConfigurationPhase getConfigurationPhase() {
        return ConfigurationPhase.REGISTER_BEAN;
    }

    @Override
    public ConditionOutcome getMatchOutcome(ConditionContext context, AnnotatedTypeMetadata metadata) {
        String backend = (String) metadata.getAnnotationAttributes(ConditionalOnLockBackend.class.getName())
                .get("value");
        LockBackends backends =
                LockBackends.of(context.getBeanFactory(), context.getEnvironment(), context.getClassLoader());
        return backends.chose(backend)
                ? ConditionOutcome.match("distlock chose the " + backend + " backend")
                : ConditionOutcome.noMatch("distlock did not choose the " + backend + " backend");
    }
}
