package io.distlock.autoconfigure.jdbc;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import java.util.UUID;
import javax.sql.DataSource;
import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.javapoet.ClassName;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;

/** Spring's ahead-of-time processing puts lock-jdbc's schema scripts into a native image, for {@code create-table}. */
class JdbcSchemaHintsTest {

    @Test
    void theSchemaScriptOfEveryDatabaseIsHintedAsAResource() {
        DefaultGenerationContext generation = new DefaultGenerationContext(
                new ClassNameGenerator(ClassName.get("io.distlock.autoconfigure.jdbc", "App")),
                new InMemoryGeneratedFiles());
        new ApplicationContextRunner()
                .withConfiguration(AutoConfigurations.of(DistributedLockAutoConfiguration.class))
                .withUserConfiguration(H2Database.class)
                .withPropertyValues("distlock.backend=jdbc")
                .prepare(context -> new ApplicationContextAotGenerator()
                        .processAheadOfTime(
                                (GenericApplicationContext) context.getSourceApplicationContext(), generation));
        RuntimeHints hints = generation.getRuntimeHints();

        for (String database : new String[] {"postgresql", "mysql", "h2"}) {
            assertThat(hints)
                    .as(database)
                    .matches(RuntimeHintsPredicates.resource()
                            .forResource("io/distlock/jdbc/schema-" + database + ".sql"));
        }
    }

    /** A factory method, since ahead-of-time processing cannot write code for an instance supplier. */
    @Configuration(proxyBeanMethods = false)
    static class H2Database {

        @Bean
        DataSource dataSource() {
            return new SimpleDriverDataSource(new org.h2.Driver(), "jdbc:h2:mem:hints-" + UUID.randomUUID());
        }
    }
}
