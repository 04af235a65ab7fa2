package io.distlock.autoconfigure;

import io.distlock.autoconfigure.internal.DistributedLockStartupException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.env.Environment;
import org.springframework.core.io.support.SpringFactoriesLoader;
import org.springframework.util.ClassUtils;

/**
 * Which backend the {@link io.distlock.Lock} bean is built on, by its {@linkplain LockBackendCandidate#id() id}: the one
 * that {@code distlock.backend} names, or else the only one present. The backends are the {@link LockBackendCandidate}s
 * that their packages list in {@code META-INF/spring.factories}, of this module or of any other. A backend is present when its module is on the class path and the application has its
 * connection: a bean of the candidate's connection type, or the candidate's connection property.
 */
final class LockBackends {

    static final String PROPERTY = "distlock.backend";

    private static final Pattern ID = Pattern.compile("[a-z][a-z0-9]*(-[a-z0-9]+)*");

    private final List<LockBackendCandidate> candidates;
    private final ListableBeanFactory beans;
    private final @Nullable ClassLoader classLoader;
    private final Map<String, String> present = new LinkedHashMap<>();
    private final Map<String, String> missing = new LinkedHashMap<>();
    private final @Nullable String chosen;
    private final @Nullable String invalidChoice;

    private LockBackends(ListableBeanFactory beans, Environment environment, @Nullable ClassLoader classLoader) {
        this.candidates = candidates(classLoader);
        this.beans = beans;
        this.classLoader = classLoader;
        String value = environment.getProperty(PROPERTY);
        String named = null;
        String invalid = null;
        if (value != null && !value.isBlank()) {
            named = candidates.stream()
                    .map(LockBackendCandidate::id)
                    .filter(id -> matches(id, value.trim()))
                    .findFirst()
                    .orElse(null);
            invalid = named == null ? value : null;
        }
        for (LockBackendCandidate candidate : candidates) {
            if (!candidate.chosenOnlyByName() || candidate.id().equals(named)) {
                look(candidate, environment);
            }
        }
        this.invalidChoice = invalid;
        // An unknown name chooses nothing, so that start-up fails naming it instead of falling back.
        this.chosen = named != null || invalid != null
                ? named
                : present.size() == 1 ? present.keySet().iterator().next() : null;
    }

    /** As Spring Boot binds names relaxed: case, dashes and underscores aside. */
    private static boolean matches(String id, String value) {
        return canonical(id).equals(canonical(value));
    }

    private static String canonical(String name) {
        return name.replace("-", "").replace("_", "").toLowerCase(java.util.Locale.ROOT);
    }

    static LockBackends of(ListableBeanFactory beans, Environment environment, @Nullable ClassLoader classLoader) {
        return new LockBackends(beans, environment, classLoader);
    }

    /**
     * The backends' candidates: distlock's own in the order of its {@code spring.factories}, then those of other modules
     * by id.
     *
     * @throws IllegalStateException when a candidate's id is not a valid id, or two candidates have the same one
     */
    static List<LockBackendCandidate> candidates(@Nullable ClassLoader classLoader) {
        List<LockBackendCandidate> candidates =
                SpringFactoriesLoader.forDefaultResourceLocation(classLoader).load(LockBackendCandidate.class);
        Map<String, LockBackendCandidate> byId = new LinkedHashMap<>();
        for (LockBackendCandidate candidate : candidates) {
            String id = candidate.id();
            if (id == null || !ID.matcher(id).matches()) {
                throw new DistributedLockStartupException(
                        "The lock backend candidate " + candidate.getClass().getName() + " has the id '" + id
                                + "'; an id is lower-case letters, digits and single dashes, starting with a letter,"
                                + " such as 'jdbc' or 'in-memory'.",
                        "Give the candidate such an id, in the module that lists it in META-INF/spring.factories.");
            }
            LockBackendCandidate other = byId.putIfAbsent(canonical(id), candidate);
            if (other != null) {
                throw new DistributedLockStartupException(
                        "Two lock backend candidates have the id '" + id + "': "
                                + other.getClass().getName() + " and "
                                + candidate.getClass().getName() + ".",
                        "Remove one of the two modules from the class path, or give one of the candidates another"
                                + " id.");
            }
        }
        List<LockBackendCandidate> ordered = new ArrayList<>(byId.values());
        // The class path decides the order of spring.factories files: distlock's own come first, in their listed order,
        // and the others after them by id, so that messages list the choices alike on every class path.
        ordered.sort(Comparator.comparing((LockBackendCandidate candidate) -> !isDistlocks(candidate))
                .thenComparing(candidate -> isDistlocks(candidate) ? "" : candidate.id()));
        return List.copyOf(ordered);
    }

    private static boolean isDistlocks(LockBackendCandidate candidate) {
        return candidate.getClass().getName().startsWith(LockBackends.class.getPackageName() + ".");
    }

    /** Whether the lock bean is to be built on the backend of this id. */
    boolean chose(String id) {
        return id.equals(chosen) && present.containsKey(id);
    }

    /**
     * Why no backend can be chosen, as a message naming the choices; null when one is chosen and present, or when
     * none is present and nothing was asked for (then there is no lock bean, which the annotation's checks report).
     */
    @Nullable
    String problem() {
        String choices = candidates.stream().map(LockBackendCandidate::id).collect(Collectors.joining("|"));
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
            return PROPERTY + "=" + chosen + ", but " + missing.get(chosen) + describePresent();
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
                    + chosen
                    + " backend was not yet defined (it is defined by a configuration processed"
                    + " later, or this Spring Boot version's auto-configuration of it is not the one distlock orders"
                    + " itself after)";
        }
        String problem = problem();
        if (problem != null) {
            return problem;
        }
        List<String> parts = new ArrayList<>();
        missing.forEach((id, why) -> parts.add(id + ": " + why));
        return "distlock found no lock backend, as none is both on the class path and connected ("
                + String.join("; ", parts)
                + "); an excluded auto-configuration of the connection, or a test slice without it, looks the same";
    }

    private LockBackendCandidate candidate(String id) {
        return candidates.stream()
                .filter(candidate -> candidate.id().equals(id))
                .findFirst()
                .orElseThrow();
    }

    private String describePresent() {
        return present.isEmpty() ? "" : ". Present: " + describe(present);
    }

    private static String describe(Map<String, String> backends) {
        List<String> parts = new ArrayList<>();
        backends.forEach((id, why) -> parts.add(id + " (" + why + ")"));
        return String.join(", ", parts);
    }

    private void look(LockBackendCandidate candidate, Environment environment) {
        String backend = candidate.id();
        String connectionType = ClassUtils.getShortName(candidate.connectionType());
        String otherConnection = otherConnection(candidate);
        if (!ClassUtils.isPresent(candidate.moduleClass(), classLoader)) {
            missing.put(backend, candidate.module() + " is not on the class path (add " + candidate.starter() + ")");
        } else if (beanNames(candidate.connectionType()).length > 0) {
            present.put(backend, candidate.module() + " with a " + connectionType + " bean");
        } else if (otherConnection != null) {
            present.put(backend, candidate.module() + " with a " + otherConnection + " bean");
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

    /** The simple name of the first of the candidate's other connection types that the application has a bean of. */
    private @Nullable String otherConnection(LockBackendCandidate candidate) {
        return candidate.otherConnectionTypes().stream()
                .filter(type -> beanNames(type).length > 0)
                .map(ClassUtils::getShortName)
                .findFirst()
                .orElse(null);
    }

    private String[] beanNames(String type) {
        if (!ClassUtils.isPresent(type, classLoader)) {
            return new String[0];
        }
        return beans.getBeanNamesForType(ClassUtils.resolveClassName(type, classLoader), true, false);
    }
}
