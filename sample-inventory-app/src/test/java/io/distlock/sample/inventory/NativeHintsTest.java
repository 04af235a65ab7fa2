package io.distlock.sample.inventory;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.sample.inventory.stock.InventoryService;
import io.distlock.sample.inventory.stock.StockTransferService;
import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.ClassNameGenerator;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.javapoet.ClassName;

/**
 * Spring's ahead-of-time processing of the inventory service, the step of a native image build that needs no GraalVM:
 * the hints it writes let the image lock as the JVM does. Whether a native image then runs is not tested here, since
 * these machines have no GraalVM.
 */
class NativeHintsTest {

    private final ApplicationContextRunner application =
            new ApplicationContextRunner().withUserConfiguration(InventoryApplication.class);

    @Test
    void theLockedMethodsOfTheServiceAreHintedForReflection() {
        RuntimeHints hints = aheadOfTime();

        assertThat(hints)
                .matches(RuntimeHintsPredicates.reflection().onMethodInvocation(InventoryService.class, "deduct"))
                .matches(RuntimeHintsPredicates.reflection().onMethodInvocation(InventoryService.class, "setStock"))
                .matches(
                        RuntimeHintsPredicates.reflection().onMethodInvocation(StockTransferService.class, "transfer"));
    }

    /** distlock finds its backends through spring.factories, which an image reads only for the types it names. */
    @Test
    void theBackendChoiceAndTheAsynchronousWaitsAreHinted() {
        RuntimeHints hints = aheadOfTime();

        assertThat(hints)
                .matches(RuntimeHintsPredicates.resource().forResource("META-INF/spring.factories"))
                .matches(RuntimeHintsPredicates.reflection()
                        .onType(TypeReference.of("io.distlock.autoconfigure.redis.RedisLockBackendCandidate")))
                .matches(RuntimeHintsPredicates.reflection()
                        .onType(TypeReference.of("io.distlock.autoconfigure.memory.InMemoryLockBackendCandidate")));
        assertThat(hints.reflection().getTypeHint(Thread.class).methods())
                .extracting(method -> method.getName())
                .contains("ofVirtual");
    }

    private RuntimeHints aheadOfTime() {
        DefaultGenerationContext generation = new DefaultGenerationContext(
                new ClassNameGenerator(ClassName.get(InventoryApplication.class)), new InMemoryGeneratedFiles());
        application.prepare(context -> new ApplicationContextAotGenerator()
                .processAheadOfTime((GenericApplicationContext) context.getSourceApplicationContext(), generation));
        return generation.getRuntimeHints();
    }
}
