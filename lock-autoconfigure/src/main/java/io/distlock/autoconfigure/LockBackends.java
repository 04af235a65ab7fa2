package io.distlock.autoconfigure;

import io.distlock.autoconfigure.redis.OnRedlockNodesCondition;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.core.env.Environment;
import org.springframework.util.ClassUtils;

/**
 * Which {@link LockBackend} the {@link io.distlock.Lock} bean is built on: the one that {@code distlock.backend} names,
 * or else the only one present. A backend is present when its module is on the class path and the application has
 * its connection: a {@code RedisConnectionFactory} bean (or {@code distlock.redlock.nodes}), a {@code DataSource}
 * bean, or a {@code CuratorFramework} bean (or {@code distlock.zookeeper.connect-string}).
 */
final class LockBackends {

    static final String PROPERTY = "distlock.backend";

    private static final String REDIS_FACTORY = "org.springframework.data.redis.connection.RedisConnectionFactory";
    private static final String LETTUCE_FACTORY =
            "org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory";
    private static final String JDBC_STORE = "io.distlock.jdbc.JdbcLeaseStore";
    private static final String DATA_SOURCE = "javax.sql.DataSource";
    private static final String ZOOKEEPER_STORE = "io.distlock.zookeeper.ZooKeeperLeaseStore";
    private static final String CURATOR = "org.apache.curator.framework.CuratorFramework";
    private static final String ZOOKEEPER_CONNECT = "distlock.zookeeper.connect-string";

    private final Map<LockBackend, String> present = new EnumMap<>(LockBackend.class);
    private final Map<LockBackend, String> missing = new EnumMap<>(LockBackend.class);
    private final @Nullable LockBackend chosen;
    private final @Nullable String invalidChoice;

    private LockBackends(ListableBeanFactory beans, Environment environment, @Nullable ClassLoader classLoader) {
        look(
                LockBackend.REDIS,
                ClassUtils.isPresent(LETTUCE_FACTORY, classLoader),
                "Lettuce",
                hasBean(beans, REDIS_FACTORY, classLoader)
                        ? "a RedisConnectionFactory bean"
                        : OnRedlockNodesCondition.configured(environment) ? "distlock.redlock.nodes" : null,
                "RedisConnectionFactory bean (spring-boot-starter-data-redis) or distlock.redlock.nodes");
        look(
                LockBackend.JDBC,
                ClassUtils.isPresent(JDBC_STORE, classLoader),
                "lock-jdbc",
                hasBean(beans, DATA_SOURCE, classLoader) ? "a DataSource bean" : null,
                "DataSource bean");
        look(
                LockBackend.ZOOKEEPER,
                ClassUtils.isPresent(ZOOKEEPER_STORE, classLoader),
                "lock-zookeeper",
                hasBean(beans, CURATOR, classLoader)
                        ? "a CuratorFramework bean"
                        : environment.containsProperty(ZOOKEEPER_CONNECT) ? ZOOKEEPER_CONNECT : null,
                "CuratorFramework bean or " + ZOOKEEPER_CONNECT);
        String value = environment.getProperty(PROPERTY);
        LockBackend named = null;
        String invalid = null;
        if (value != null && !value.isBlank()) {
            named = Stream.of(LockBackend.values())
                    .filter(backend -> backend.name().equalsIgnoreCase(value.trim()))
                    .findFirst()
                    .orElse(null);
            invalid = named == null ? value : null;
        }
        this.invalidChoice = invalid;
        // An unknown name chooses nothing, so that start-up fails naming it instead of falling back.
        this.chosen = named != null || invalid != null
                ? named
                : present.size() == 1 ? present.keySet().iterator().next() : null;
    }

    static LockBackends of(ListableBeanFactory beans, Environment environment, @Nullable ClassLoader classLoader) {
        return new LockBackends(beans, environment, classLoader);
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
        String choices =
                Stream.of(LockBackend.values()).map(LockBackend::propertyValue).collect(Collectors.joining("|"));
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

    private String describePresent() {
        return present.isEmpty() ? "" : ". Present: " + describe(present);
    }

    private static String describe(Map<LockBackend, String> backends) {
        List<String> parts = new ArrayList<>();
        backends.forEach((backend, why) -> parts.add(backend.propertyValue() + " (" + why + ")"));
        return String.join(", ", parts);
    }

    private void look(LockBackend backend, boolean onClassPath, String module, @Nullable String found, String needed) {
        if (!onClassPath) {
            String dependency = module.startsWith("lock-")
                    ? "the io.distlock:" + module + " dependency"
                    : "spring-boot-starter-data-redis";
            missing.put(backend, module + " is not on the class path (add " + dependency + ")");
        } else if (found == null) {
            missing.put(backend, "the application has no " + needed);
        } else {
            present.put(backend, module + " with " + found);
        }
    }

    private static boolean hasBean(ListableBeanFactory beans, String type, @Nullable ClassLoader classLoader) {
        if (!ClassUtils.isPresent(type, classLoader)) {
            return false;
        }
        Class<?> resolved = ClassUtils.resolveClassName(type, classLoader);
        return beans.getBeanNamesForType(resolved, true, false).length > 0;
    }
}
