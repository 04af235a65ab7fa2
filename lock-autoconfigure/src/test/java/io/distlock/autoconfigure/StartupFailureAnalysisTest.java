package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.DistributedLock;
import java.io.InputStream;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.aop.AopAutoConfiguration;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * distlock's start-up failures reach the user as Spring Boot's report, a description and an action, rather than as
 * the stack trace of nested bean creation failures they arrive in.
 */
class StartupFailureAnalysisTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(
                    AopAutoConfiguration.class,
                    DistributedLockAutoConfiguration.class,
                    DistributedLockAnnotationAutoConfiguration.class));

    @Test
    void distlocksAnalyzersAreRegisteredWithSpringBoot() throws Exception {
        Properties factories = new Properties();
        try (InputStream in = DistributedLockFailureAnalyzer.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI()
                .resolve("META-INF/spring.factories")
                .toURL()
                .openStream()) {
            factories.load(in);
        }
        List<String> analyzers =
                List.of(factories.getProperty(FailureAnalyzer.class.getName()).split(","));

        assertThat(analyzers)
                .contains(
                        DistributedLockFailureAnalyzer.class.getName(),
                        DistributedLockDefinitionFailureAnalyzer.class.getName(),
                        SecretPropertyFailureAnalyzer.class.getName());
    }

    @Test
    void annotatedMethodsWithoutALockAreReportedWithTheMethodsAndWhatToDo() {
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(
                        AopAutoConfiguration.class, DistributedLockAnnotationAutoConfiguration.class))
                .withBean(Jobs.class)
                .run(context -> {
                    FailureAnalysis analysis =
                            new DistributedLockFailureAnalyzer().analyze(context.getStartupFailure());

                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription())
                            .contains("@DistributedLock methods cannot run")
                            .contains("there is no Lock bean")
                            .contains("Jobs.run()");
                    assertThat(analysis.getAction()).contains("distlock.enabled=false");
                });
    }

    @Test
    void aBackendThatCannotBeChosenIsReportedWithTheChoices() {
        runner.withPropertyValues("distlock.backend=cassandra").run(context -> {
            FailureAnalysis analysis = new DistributedLockFailureAnalyzer().analyze(context.getStartupFailure());

            assertThat(analysis).isNotNull();
            assertThat(analysis.getDescription())
                    .contains("distlock.backend=cassandra is not a distlock backend")
                    .contains("in-memory");
            assertThat(analysis.getAction()).contains("Set distlock.backend");
        });
    }

    @Test
    void anAnnotationThatCannotWorkIsReportedWithTheMethodAndTheProblem() {
        runner.withPropertyValues("distlock.backend=in-memory")
                .withBean(BadKey.class)
                .run(context -> {
                    FailureAnalysis analysis =
                            new DistributedLockDefinitionFailureAnalyzer().analyze(context.getStartupFailure());

                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription())
                            .startsWith("@DistributedLock on ")
                            .contains("BadKey.run(String)")
                            .contains("#nope");
                    assertThat(analysis.getAction()).contains("Change the @DistributedLock annotation");
                });
    }

    @Test
    void aMissingLockTableIsReportedWithHowToCreateIt() {
        DistlockContexts.runner()
                .withClassLoader(new FilteredClassLoader("io.distlock.redis."))
                .withUserConfiguration(LockBackendSelectionTest.H2Database.class)
                .run(context -> {
                    FailureAnalysis analysis =
                            new DistributedLockFailureAnalyzer().analyze(context.getStartupFailure());

                    assertThat(analysis).isNotNull();
                    assertThat(analysis.getDescription())
                            .startsWith("distlock cannot use its lock table distlock_locks")
                            .contains("io/distlock/jdbc/schema-h2.sql");
                    assertThat(analysis.getAction())
                            .contains("distlock.jdbc.create-table=true")
                            .contains("distlock.jdbc.table-name");
                });
    }

    /** A bean with an annotated method. */
    static class Jobs {

        @DistributedLock(key = "'jobs'")
        public void run() {}
    }

    /** A key that names no parameter. */
    static class BadKey {

        @DistributedLock(key = "#nope")
        public void run(String sku) {}
    }
}
