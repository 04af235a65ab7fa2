package io.distlock.autoconfigure.startup;

import io.distlock.Lock;
import io.distlock.annotation.DistributedLockAdvisor;
import io.distlock.autoconfigure.DistributedLockAnnotationAutoConfiguration;
import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.autoconfigure.internal.WarmUpCalls;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Auto-configuration of the start-up preparation: with one {@link Lock} bean and unless {@code
 * distlock.startup.prepare=false}, the lock connects, loads its scripts, subscribes and makes {@code
 * distlock.startup.warm-up-calls} calls through a locked method of distlock's own before the application reports
 * ready.
 */
@AutoConfiguration(after = {DistributedLockAutoConfiguration.class, DistributedLockAnnotationAutoConfiguration.class})
@ConditionalOnBooleanProperty(name = "distlock.enabled", matchIfMissing = true)
@ConditionalOnBooleanProperty(name = "distlock.startup.prepare", matchIfMissing = true)
@ConditionalOnSingleCandidate(Lock.class)
@EnableConfigurationProperties(LockStartupProperties.class)
public final class LockStartupAutoConfiguration {

    @Bean
    @ConditionalOnBean(DistributedLockAdvisor.class)
    WarmUpCalls distlockWarmUpCalls() {
        return new WarmUpCalls();
    }

    @Bean
    LockStartupPreparation distlockStartupPreparation(
            Lock lock, ObjectProvider<WarmUpCalls> calls, LockStartupProperties properties) {
        return new LockStartupPreparation(lock, calls.getIfAvailable(), properties);
    }
}
