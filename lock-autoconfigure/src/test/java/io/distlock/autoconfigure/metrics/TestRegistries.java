package io.distlock.autoconfigure.metrics;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.tck.TestObservationRegistry;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** An application's registries, in memory: a meter registry and an observation registry that keeps what it saw. */
@Configuration(proxyBeanMethods = false)
class TestRegistries {

    @Bean
    SimpleMeterRegistry meterRegistry() {
        return new SimpleMeterRegistry();
    }

    @Bean
    TestObservationRegistry observationRegistry() {
        return TestObservationRegistry.create();
    }
}
