package io.distlock.autoconfigure;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.env.Environment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.util.ClassUtils;

/**
 * Which {@link LockBackend} the {@link io.distlock.Lock} bean is built on: the one that {@code distlock.backend} names,
 * or else the only one present. The backends are the {@link LockBackendCandidate}s that their packages list in {@code
 * META-INF/spring.factories}. A backend is present when its module is on the class path and the application has its
 * connection: a bean of the candidate's connection type, or the candidate's connection property.
 */
final class LockBackends {

    static final String PROPERTY = "distlock.backend";

    private final List<LockBackendCandidate> candidates;
    private final ListableBeanFactory beans;
    private final @Nullable ClassLoader classLoader;
    private final Map<LockBackend, String> present = new EnumMap<>(LockBackend.class);
    private final Map<LockBackend, String> missing = new EnumMap<>(LockBackend.class);
    private final @Nullable LockBackend chosen;
    private final @Nullable String invalidChoice;

    private LockBackends(ListableBeanFactory beans, Environment environment, @Nullable ClassLoader classLoader) {
        this.candidates = candidates(classLoader);
        this.beans = beans;
        this.classLoader = classLoader;
        String value = environment.getProperty(PROPERTY);
        LockBackend named = null;
        String invalid = null;
        if (value != null && !value.isBlank()) {
            named = candidates.stream()
                    .map(LockBackendCandidate::backend)
                    .filter(backend -> matches(backend, value.trim()))
                    .findFirst()
                    .orElse(null);
            invalid = named == null ? value : null;
        }
        for (LockBackendCandidate candidate : candidates) {
            if (!candidate.chosenOnlyByName() || candidate.backend() == named) {
                look(candidate, environment);
            }
        }
        this.invalidChoice = invalid;
        // An unknown name chooses nothing, so that start-up fails naming it instead of falling back.
        this.chosen = named != null || invalid != null
                ? named
                : present.size() == 1 ? present.keySet().iterator().next() : null;
    }

    /** As Spring Boot binds the property to the enum: case, dashes and underscores aside. */
    private static boolean matches(LockBackend backend, String value) {
        return canonical(backend.name()).equals(canonical(value));
    }

    private static String canonical(String name) {
        return name.replace("-", "").replace("_", "").toLowerCase(java.util.Locale.ROOT);
    }

    static LockBackends of(ListableBeanFactory beans, Environment environment, @Nullable ClassLoader classLoader) {
        return new LockBackends(beans, environment, classLoader);
    }

    /**
     * The backends' candidates, in the order of {@link LockBackend}.
     *
     * @throws IllegalStateException when two candidates describe the same backend
     */
    static List<LockBackendCandidate> candidates(@Nullable ClassLoader classLoader) {
        List<LockBackendCandidate> candidates = new ArrayList<>(
                SpringFactoriesLoader.forDefaultResourceLocation(classLoader).load(LockBackendCandidate.class));
        candidates.sort(Comparator.comparing(LockBackendCandidate::backend));
        for (int i = 1; i < candidates.size(); i++) {
            if (candidates.get(i).backend() == candidates.get(i - 1).backend()) {
                throw new IllegalStateException("Two lock backend candidates describe "
                        + candidates.get(i).backend()
                        + ": " + candidates.get(i - 1).getClass().getName() + " and "
                        + candidates.get(i).getClass().getName());
            }
        }
        return candidates;
    }

    /** Whether the lock bean is to be built on this backend. */
    boolean chose(LockBackend backend) {
        return chosen == backend && present.containsKey(backend);
    }

    /**
     * Why no backend can be chosen, as a message naming the choices; null when one is chosen and present, or when
     * none is present and nothing was asked for (then there is no lock bean, which the annotation's checks report).
     */
    @Nullable
    String problem() {
        String choices = candidates.stream()
                .map(candidate -> candidate.backend().propertyValue())
                .collect(Collectors.joining("|"));
        if (invalidChoice != null) {
            return PROPERTY + "=" + invalidChoice + " is not a distlock backend; choose " + PROPERTY + "=" + choices;
        }
        if (chosen == null) {
            if (present.size() < 2) {
                return null;
            }
            return "distlock found more than one lock backend: " + describe(present) + ". Choose one with " + PROPERTY
                    + "=" + choices + ", or define your own io.distlock.Lock bean";
        }
        if (!present.containsKey(chosen)) {
            return PROPERTY + "=" + chosen.propertyValue() + ", but " + missing.get(chosen) + describePresent();
        }
        return null;
    }

    /**
     * Why the lock bean is missing although the backend choice ran, for an application that has no lock: the chosen
     * backend's connection came too late for the configuration that builds the lock, the choice cannot be made, or no
     * backend is present (naming what each one lacks).
     */
    String whyNoLock() {
        if (chosen != null && present.containsKey(chosen)) {
            LockBackendCandidate candidate = candidate(chosen);
            String[] connections = beanNames(candidate.connectionType());
            String connection = connections.length > 0
                    ? "the " + ClassUtils.getShortName(candidate.connectionType()) + " " + Arrays.toString(connections)
                    : String.valueOf(candidate.connectionProperty());
            return "distlock's auto-configuration backed off: when it ran, " + connection + " of the "
                    + chosen.propertyValue()
                    + " backend was not yet defined (it is defined by a configuration processed"
                    + " later, or this Spring Boot version's auto-configuration of it is not the one distlock orders"
                    + " itself after)";
        }
        String problem = problem();
        if (problem != null) {
            return problem;
        }
        List<String> parts = new ArrayList<>();
        missing.forEach((backend, why) -> parts.add(backend.propertyValue() + ": " + why));
        return "distlock found no lock backend, as none is both on the class path and connected ("
                + String.join("; ", parts)
                + "); an excluded auto-configuration of the connection, or a test slice without it, looks the same";
    }

    private LockBackendCandidate candidate(LockBackend backend) {
        return candidates.stream()
                .filter(candidate -> candidate.backend() == backend)
                .findFirst()
                .orElseThrow();
    }

    private String describePresent() {
        return present.isEmpty() ? "" : ". Present: " + describe(present);
    }

    private static String describe(Map<LockBackend, String> backends) {
        List<String> parts = new ArrayList<>();
        backends.forEach((backend, why) -> parts.add(backend.propertyValue() + " (" + why + ")"));
        return String.join(", ", parts);
    }

    private void look(LockBackendCandidate candidate, Environment environment) {
        LockBackend backend = candidate.backend();
        String connectionType = ClassUtils.getShortName(candidate.connectionType());
        if (!ClassUtils.isPresent(candidate.moduleClass(), classLoader)) {
            missing.put(backend, candidate.module() + " is not on the class path (add " + candidate.starter() + ")");
        } else if (beanNames(candidate.connectionType()).length > 0) {
            present.put(backend, candidate.module() + " with a " + connectionType + " bean");
        } else if (candidate.hasConnectionProperty(environment)) {
            present.put(backend, candidate.module() + " with " + candidate.connectionProperty());
        } else {
            String starter = candidate.connectionStarter();
            String property = candidate.connectionProperty();
            missing.put(
                    backend,
                    "the application has no " + connectionType + " bean" + (starter != null ? " (" + starter + ")" : "")
                            + (property != null ? " or " + property : ""));
        }
    }

    private String[] beanNames(String type) {
        if (!ClassUtils.isPresent(type, classLoader)) {
            return new String[0];
        }
        return beans.getBeanNamesForType(ClassUtils.resolveClassName(type, classLoader), true, false);
    }
}
