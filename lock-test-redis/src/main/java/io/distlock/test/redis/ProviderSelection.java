package io.distlock.test.redis;

import io.distlock.test.redis.TestRedis.Provider;
import java.util.Arrays;
import java.util.Locale;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/** Decides where test Redis servers come from: a forced choice, else Docker, else the PATH, else embedded-redis. */
final class ProviderSelection {

    static final String PROPERTY = "distlock.test.redis";
    static final String ENVIRONMENT_VARIABLE = "DISTLOCK_TEST_REDIS";

    private static final Logger LOG = LoggerFactory.getLogger(ProviderSelection.class);

    private static Provider chosen;

    private ProviderSelection() {}

    /** The provider for servers that do not force one; decided and logged once per JVM. */
    static synchronized Provider defaultProvider() {
        if (chosen == null) {
            Choice choice = forcedChoice().orElseGet(ProviderSelection::automaticChoice);
            LOG.info("Test Redis servers come from {}: {}", choice.provider(), choice.reason());
            chosen = choice.provider();
        }
        return chosen;
    }

    /**
     * The provider for topologies that only local processes can form (clusters, Sentinel groups): the default one when
     * it runs processes, else (Docker) the PATH's redis-server if there is one, else the embedded binary.
     */
    static Provider defaultProcessProvider() {
        Provider preferred = defaultProvider();
        if (preferred != Provider.TESTCONTAINERS) {
            return preferred;
        }
        return RedisExecutable.onPath().isPresent() ? Provider.PATH : Provider.EMBEDDED;
    }

    /** The first provider that works on this machine, ignoring any forced choice. */
    static Choice automaticChoice() {
        Optional<String> dockerHint = DockerEngine.hint();
        String docker;
        if (dockerHint.isEmpty()) {
            docker = "no Docker engine (no DOCKER_HOST, no docker.host setting, no Docker socket)";
        } else if (DockerEngine.isAvailable()) {
            return new Choice(Provider.TESTCONTAINERS, "Docker engine available (" + dockerHint.get() + ")");
        } else {
            docker = "Docker engine not reachable although " + dockerHint.get();
        }
        Optional<RedisExecutable> onPath = RedisExecutable.onPath();
        if (onPath.isPresent()) {
            return new Choice(
                    Provider.PATH,
                    docker + "; using " + onPath.get().label() + " at "
                            + onPath.get().path());
        }
        Optional<String> embedded = EmbeddedBinary.resourceName();
        if (embedded.isPresent()) {
            return new Choice(Provider.EMBEDDED, docker + "; no redis-server on PATH; using " + embedded.get());
        }
        throw new IllegalStateException("No Redis for tests: " + docker
                + ", no redis-server on PATH, and embedded-redis has no binary for "
                + System.getProperty("os.name") + "/" + System.getProperty("os.arch"));
    }

    private static Optional<Choice> forcedChoice() {
        String property = System.getProperty(PROPERTY);
        if (property != null && !property.isBlank()) {
            return Optional.of(new Choice(parse(property), "forced by system property " + PROPERTY + "=" + property));
        }
        String variable = System.getenv(ENVIRONMENT_VARIABLE);
        if (variable != null && !variable.isBlank()) {
            return Optional.of(new Choice(
                    parse(variable), "forced by environment variable " + ENVIRONMENT_VARIABLE + "=" + variable));
        }
        return Optional.empty();
    }

    static Provider parse(String name) {
        try {
            return Provider.valueOf(name.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(
                    "Unknown test Redis provider '" + name + "' in " + PROPERTY + "/" + ENVIRONMENT_VARIABLE
                            + "; use one of "
                            + Arrays.toString(Provider.values()).toLowerCase(Locale.ROOT),
                    e);
        }
    }

    /** A provider and the reason it was chosen, which goes to the log so a slow or odd test run explains itself. */
    record Choice(Provider provider, String reason) {}
}
