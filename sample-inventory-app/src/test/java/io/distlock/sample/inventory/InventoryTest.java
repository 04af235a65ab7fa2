package io.distlock.sample.inventory;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.webmvc.test.autoconfigure.AutoConfigureMockMvc;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.ContextConfiguration;

/**
 * The whole application with the {@code demo} profile (the unprotected endpoint, Actuator showing the locks) on a random
 * port against the shared test Redis, with MockMvc and the test-only {@link SlowInventoryTasks}. One annotation for
 * every such test, MockMvc and real HTTP alike, so they all share one cached application context and the application
 * starts once. {@link SafeDefaultsTest} has the application without the profile.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@AutoConfigureMockMvc
@ContextConfiguration(initializers = UseTestRedis.class)
@ActiveProfiles("demo")
@Import(SlowInventoryTasks.class)
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public @interface InventoryTest {}
