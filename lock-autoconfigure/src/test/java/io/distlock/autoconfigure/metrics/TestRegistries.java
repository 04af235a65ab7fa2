package io.distlock.autoconfigure.metrics;

import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * An application's registries, in memory, wired as Spring Boot wires them: a meter registry, and an observation
 * registry that keeps what it saw and makes timers of its observations in the meter registry.
 */
@Configuration(proxyBeanMethods = false)
class TestRegistries {

    @Bean
    SimpleMeterRegistry meterRegistry() {
        return new SimpleMeterRegistry();
    }

    @Bean
    TestObservationRegistry observationRegistry(SimpleMeterRegistry meterRegistry) {
        TestObservationRegistry registry = TestObservationRegistry.create();
        registry.observationConfig().observationHandler(new DefaultMeterObservationHandler(meterRegistry));
        return registry;
    }
}
