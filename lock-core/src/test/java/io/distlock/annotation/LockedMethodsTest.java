package io.distlock.annotation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Checks of annotations that need no Spring context; the start-up tests of the starter cover the rest. */
class LockedMethodsTest {

    private final LockedMethods methods = new LockedMethods(null, LockDefaults.standard());

    @Test
    void classWithoutAnnotationsHasNothingToCheck() {
        assertThat(methods.inspect(String.class)).isEmpty();
    }

    @Test
    void annotationOnAnInterfaceMethodIsFound() {
        assertThat(methods.inspect(Implementation.class))
                .singleElement()
                .satisfies(method -> assertThat(method.getName()).isEqualTo("deduct"));
    }

    @Test
    void missingParameterNamesShowTheFix(@TempDir Path sources) throws Exception {
        Class<?> compiledWithoutNames = compileWithoutParameterNames(sources);

        assertThatThrownBy(() -> methods.inspect(compiledWithoutNames))
                .isInstanceOf(DistributedLockDefinitionException.class)
                .hasMessageContaining("NoNames.deduct(String)")
                .hasMessageContaining("-parameters")
                .hasMessageContaining("<parameters>true</parameters>")
                .hasMessageContaining("#p0");
    }

    @Test
    void positionalReferencesWorkWithoutParameterNames(@TempDir Path sources) throws Exception {
        Class<?> compiled = compile(sources, "Positional", "'stock:' + #p0");

        assertThat(methods.inspect(compiled)).hasSize(1);
    }

    @Test
    void expressionReferringToABeanNeedsABeanFactory() {
        assertThatThrownBy(() -> methods.inspect(BeanReference.class))
                .isInstanceOf(DistributedLockDefinitionException.class)
                .hasMessageContaining("@names");
    }

    @Test
    void durationTextIsReadWithoutASpringContext() throws Exception {
        LockedMethod locked = methods.get(TextDurations.class.getMethod("run", String.class), TextDurations.class);

        assertThat(locked.lease()).isEqualTo(Lease.fixed(Duration.ofSeconds(90)));
        assertThat(locked.waitTime()).isEqualTo(Duration.ofMillis(250));
    }

    @Test
    void placeholderLeftUnresolvedWithoutASpringContextIsRefused() {
        assertThatThrownBy(() -> methods.inspect(Placeholder.class))
                .isInstanceOf(DistributedLockDefinitionException.class)
                .hasMessageContaining("Placeholder.run(String)")
                .hasMessageContaining("lease \"${jobs.lease:5m}\" could not be resolved");
    }

    static class TextDurations {
        @DistributedLock(key = "#job", lease = "90s", waitTime = "250ms")
        public void run(String job) {}
    }

    static class Placeholder {
        @DistributedLock(key = "#job", lease = "${jobs.lease:5m}")
        public void run(String job) {}
    }

    interface Stock {
        @DistributedLock(key = "'stock:' + #sku")
        int deduct(String sku);
    }

    static class Implementation implements Stock {
        @Override
        public int deduct(String sku) {
            return 1;
        }
    }

    static class BeanReference {
        @DistributedLock(key = "@names.of(#sku)")
        public int deduct(String sku) {
            return 1;
        }
    }

    private static Class<?> compileWithoutParameterNames(Path directory) throws IOException, ClassNotFoundException {
        return compile(directory, "NoNames", "'stock:' + #sku");
    }

    /** Compiles a one-method class with javac's defaults, which leave parameter names out. */
    private static Class<?> compile(Path directory, String name, String key)
            throws IOException, ClassNotFoundException {
        Path source = directory.resolve(name + ".java");
        Files.writeString(source, """
                public class %s {
                    @io.distlock.DistributedLock(key = "%s")
                    public String deduct(String sku) {
                        return sku;
                    }
                }
                """.formatted(name, key.replace("\"", "\\\"")));
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        int status = compiler.run(
                null,
                null,
                null,
                "-classpath",
                System.getProperty("java.class.path"),
                "-d",
                directory.toString(),
                source.toString());
        assertThat(status).isZero();
        URLClassLoader loader =
                new URLClassLoader(new URL[] {directory.toUri().toURL()}, LockedMethodsTest.class.getClassLoader());
        return loader.loadClass(name);
    }
}
