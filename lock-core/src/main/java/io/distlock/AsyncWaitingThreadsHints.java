package io.distlock;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;
import org.springframework.aot.hint.TypeReference;

/**
 * Lets a native image built on Java 21 or later make the virtual threads that {@link AsyncAcquisitions} waits on: it
 * finds {@code Thread.ofVirtual()} by reflection, since distlock is compiled for Java 17, and an image answers such a
 * lookup only for what its hints name.
 */
final class AsyncWaitingThreadsHints implements RuntimeHintsRegistrar {

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        hints.reflection()
                .registerType(Thread.class, type -> type.withMethod("ofVirtual", List.of(), ExecutableMode.INVOKE));
        hints.reflection()
                .registerType(
                        TypeReference.of("java.lang.Thread$Builder"),
                        type -> type.withMethod(
                                        "name",
                                        List.of(TypeReference.of(String.class), TypeReference.of(long.class)),
                                        ExecutableMode.INVOKE)
                                .withMethod("factory", List.of(), ExecutableMode.INVOKE));
    }
}
