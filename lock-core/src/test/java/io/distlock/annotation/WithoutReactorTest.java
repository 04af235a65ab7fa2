package io.distlock.annotation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.distlock.DistributedLock;
import java.lang.reflect.Method;
import java.net.URL;
import java.net.URLClassLoader;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** Reactor is optional: without it on the class path, annotated plain and CompletionStage methods still work. */
class WithoutReactorTest {

    @Test
    void plainAndStageMethodsAreCheckedAndTheInterceptorLoadsWithoutReactor() throws Exception {
        try (HidingReactor loader = new HidingReactor()) {
            assertThatThrownBy(() -> loader.loadClass("reactor.core.publisher.Mono"))
                    .isInstanceOf(ClassNotFoundException.class);

            Class<?> defaults = loader.loadClass(LockDefaults.class.getName());
            Object registry = loader.loadClass(LockedMethods.class.getName())
                    .getConstructor(org.springframework.beans.factory.BeanFactory.class, defaults)
                    .newInstance(null, defaults.getMethod("standard").invoke(null));
            Class<?> stages = loader.loadClass(Stages.class.getName());
            Method inspect = registry.getClass().getMethod("inspect", Class.class);

            assertThat((List<?>) inspect.invoke(registry, stages)).hasSize(2);
            assertThat(Class.forName(DistributedLockInterceptor.class.getName(), true, loader))
                    .isNotSameAs(DistributedLockInterceptor.class);
            assertThat(Class.forName(AsyncLockedExecution.class.getName(), true, loader))
                    .isNotSameAs(AsyncLockedExecution.class);
        }
    }

    public static class Stages {
        @DistributedLock(key = "#sku")
        public String plain(String sku) {
            return sku;
        }

        @DistributedLock(key = "#sku")
        public CompletableFuture<String> later(String sku) {
            return CompletableFuture.completedFuture(sku);
        }
    }

    /** Defines distlock's classes itself, from the same class path, and finds no Reactor or Reactive Streams. */
    private static final class HidingReactor extends URLClassLoader {

        HidingReactor() {
            super(
                    new URL[] {
                        LockedMethods.class
                                .getProtectionDomain()
                                .getCodeSource()
                                .getLocation(),
                        WithoutReactorTest.class
                                .getProtectionDomain()
                                .getCodeSource()
                                .getLocation()
                    },
                    WithoutReactorTest.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            synchronized (getClassLoadingLock(name)) {
                if (name.startsWith("reactor.") || name.startsWith("org.reactivestreams.")) {
                    throw new ClassNotFoundException(name + " is hidden by the test");
                }
                if (!name.startsWith("io.distlock.")) {
                    return super.loadClass(name, resolve);
                }
                Class<?> loaded = findLoadedClass(name);
                return loaded != null ? loaded : findClass(name);
            }
        }
    }
}
