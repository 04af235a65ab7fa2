package io.distlock.autoconfigure;

import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.core.env.Environment;

/**
 * One backend that the {@link io.distlock.Lock} bean can be built on, as the backend's own package describes it to the
 * backend choice: its name, the module that brings it, how to tell whether the application has a connection to it, what
 * to add when something is missing, and the configuration that builds the lock.
 *
 * <p>Candidates are listed in {@code META-INF/spring.factories} under this interface's name and loaded with Spring's
 * {@link org.springframework.core.io.support.SpringFactoriesLoader}, whether the backend's module is on the class path
 * or not: a missing module is what some messages are about. A backend of another module lists its candidate in that
 * module's own {@code spring.factories}, and is chosen like distlock's own. So a candidate names the module's classes, the connection's
 * type and its configuration by name, and loads none of them.
 */
public interface LockBackendCandidate {

    /**
     * The backend's id, as {@code distlock.backend} names it and {@link ConditionalOnLockBackend} matches it: lower-case
     * letters, digits and dashes, starting with a letter, such as {@code jdbc} or {@code in-memory}. Two candidates
     * with the same id fail start-up.
     *
     * @return the id
     */
    String id();

    /**
     * The module that brings the backend, for messages.
     *
     * @return an artifact id, such as {@code lock-jdbc}
     */
    String module();

    /**
     * A class of the module: the backend is available when it is on the class path.
     *
     * @return a fully qualified class name
     */
    String moduleClass();

    /**
     * What an application adds to get the module, as the README tells users.
     *
     * @return a starter's group id and artifact id, such as {@code io.distlock:lock-jdbc-spring-boot-starter}
     */
    String starter();

    /**
     * The type of the application's bean that connects to the backend.
     *
     * @return a fully qualified class name, such as {@code javax.sql.DataSource}
     */
    String connectionType();

    /**
     * Other types of bean that connect the backend too, such as Spring Boot {@code ConnectionDetails} that a test or
     * Docker Compose supplies: a bean of any of them makes the backend present, like one of {@link #connectionType()}.
     *
     * @return fully qualified class names; none by default
     */
    default List<String> otherConnectionTypes() {
        return List.of();
    }

    /**
     * What brings a bean of {@link #connectionType()} when the application has none, for messages.
     *
     * @return a dependency, or null to name none
     */
    default @Nullable String connectionStarter() {
        return null;
    }

    /**
     * A property that gives distlock a connection of its own to the backend, instead of the application's bean.
     *
     * @return a property name, or null when there is none
     */
    default @Nullable String connectionProperty() {
        return null;
    }

    /**
     * Whether the environment sets {@link #connectionProperty()}.
     *
     * @param environment the application's environment
     * @return true when distlock can connect on its own
     */
    default boolean hasConnectionProperty(Environment environment) {
        String property = connectionProperty();
        return property != null && environment.containsProperty(property);
    }

    /**
     * Whether the backend is chosen only when {@code distlock.backend} names it. Such a backend is never chosen because
     * it is the only one present, and is left out of what the choice reports as present or missing.
     *
     * @return true for a backend that must be asked for by name
     */
    default boolean chosenOnlyByName() {
        return false;
    }

    /**
     * The configuration that builds the lock on this backend, which {@link DistributedLockAutoConfiguration} imports.
     * It switches itself off, with {@code @ConditionalOnClass}, when the module is missing, and builds the lock only
     * when {@link ConditionalOnLockBackend} says the backend is chosen.
     *
     * @return a fully qualified class name
     */
    String configuration();
}
