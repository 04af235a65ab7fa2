package io.distlock.annotation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.DistributedLock;
import io.distlock.LockNotAcquiredException;
import org.junit.jupiter.api.Test;
import org.springframework.aot.generate.DefaultGenerationContext;
import org.springframework.aot.generate.InMemoryGeneratedFiles;
import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.TypeHint;
import org.springframework.aot.hint.TypeReference;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.javapoet.ClassName;

/**
 * Spring's ahead-of-time processing of an application with {@code @DistributedLock} beans, as a native image build
 * runs it: the hints name what the annotated methods reach by reflection.
 */
class LockedMethodsAotProcessorTest {

    @Test
    void annotatedMethodsTheirFallbacksAndTheirParametersTypesAreHinted() throws Exception {
        RuntimeHints hints = hintsFor(Orders.class);

        assertThat(hints)
                .matches(RuntimeHintsPredicates.reflection()
                        .onMethodInvocation(Orders.class.getDeclaredMethod("ship", Order.class)))
                .matches(RuntimeHintsPredicates.reflection()
                        .onMethodInvocation(Orders.class.getDeclaredMethod(
                                "shipLater", Order.class, LockNotAcquiredException.class)))
                .matches(RuntimeHintsPredicates.reflection()
                        .onType(Order.class)
                        .withMemberCategories(MemberCategory.INVOKE_PUBLIC_METHODS))
                .matches(RuntimeHintsPredicates.reflection().onMethodInvocation(Order.class, "id"));
    }

    @Test
    void aBeanWithoutTheAnnotationGetsNoHints() throws Exception {
        RuntimeHints hints = hintsFor(Plain.class);

        assertThat(hints)
                .matches(RuntimeHintsPredicates.reflection()
                        .onMethodInvocation(Plain.class.getDeclaredMethod("ship", Order.class))
                        .negate())
                .matches(RuntimeHintsPredicates.reflection().onType(Order.class).negate());
    }

    @Test
    void aFallbackThatCannotWorkFailsTheBuildNamingIt() {
        assertThatThrownBy(() -> hintsFor(MissingFallback.class))
                .hasStackTraceContaining("fallback method \"absent\" was not found");
    }

    @Test
    void theVirtualThreadsOfAsynchronousWaitsAreHinted() throws Exception {
        RuntimeHints hints = hintsFor(Plain.class);

        TypeHint builder = hints.reflection().getTypeHint(TypeReference.of("java.lang.Thread$Builder"));
        assertThat(builder).isNotNull();
        assertThat(builder.methods()).extracting(method -> method.getName()).contains("name", "factory");
        assertThat(hints.reflection().getTypeHint(Thread.class).methods())
                .extracting(method -> method.getName())
                .contains("ofVirtual");
    }

    private static RuntimeHints hintsFor(Class<?> beanClass) {
        DefaultGenerationContext generation = new DefaultGenerationContext(
                new org.springframework.aot.generate.ClassNameGenerator(ClassName.get("io.distlock.aottest", "App")),
                new InMemoryGeneratedFiles());
        try (GenericApplicationContext context = new GenericApplicationContext()) {
            context.registerBean(beanClass);
            new ApplicationContextAotGenerator().processAheadOfTime(context, generation);
        }
        return generation.getRuntimeHints();
    }

    public record Order(String id) {}

    static class Orders {

        @DistributedLock(key = "'order:' + #order.id", fallback = "shipLater")
        public String ship(Order order) {
            return "shipped";
        }

        String shipLater(Order order, LockNotAcquiredException busy) {
            return "later";
        }
    }

    static class Plain {

        public String ship(Order order) {
            return "shipped";
        }
    }

    static class MissingFallback {

        @DistributedLock(key = "'order:' + #order.id", fallback = "absent")
        public String ship(Order order) {
            return "shipped";
        }
    }
}
