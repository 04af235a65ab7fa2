package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.springframework.util.ClassUtils;

/**
 * The backends describe themselves to the backend choice: every backend has one candidate, found in {@code
 * META-INF/spring.factories}, whose names are real classes of its own package and module; the neutral package names no
 * client.
 */
class LockBackendCandidatesTest {

    private static final List<String> CLIENTS = List.of(
            "io.lettuce",
            "org.springframework.data.redis",
            "org.springframework.boot.data.redis",
            "redis.clients",
            "javax.sql",
            "org.springframework.jdbc",
            "org.apache.curator",
            "org.apache.zookeeper",
            "io.distlock.redis",
            "io.distlock.jdbc",
            "io.distlock.zookeeper",
            "io.distlock.autoconfigure.redis",
            "io.distlock.autoconfigure.jdbc",
            "io.distlock.autoconfigure.zookeeper",
            "io.distlock.memory",
            "io.distlock.autoconfigure.memory");

    @Test
    void everyBackendHasOneCandidateFromItsOwnPackage() {
        List<LockBackendCandidate> candidates =
                LockBackends.candidates(getClass().getClassLoader());

        assertThat(candidates)
                .extracting(LockBackendCandidate::id)
                .containsExactly("redis", "jdbc", "zookeeper", "in-memory");
        for (LockBackendCandidate candidate : candidates) {
            String backendPackage = "io.distlock.autoconfigure." + packageSegment(candidate.id());
            assertThat(candidate.getClass().getPackageName()).isEqualTo(backendPackage);
            assertThat(candidate.configuration()).startsWith(backendPackage + ".");
            for (String type :
                    List.of(candidate.moduleClass(), candidate.connectionType(), candidate.configuration())) {
                assertThat(ClassUtils.isPresent(type, null)).as(type).isTrue();
            }
            assertThat(candidate.moduleClass()).startsWith("io.distlock." + packageSegment(candidate.id()) + ".");
            assertThat(candidate.starter()).startsWith("io.distlock:lock-").endsWith("spring-boot-starter");
        }
    }

    /** The in-memory store lives in lock-core's {@code memory} package, the others in their modules' own. */
    private static String packageSegment(String id) {
        return id.equals("in-memory") ? "memory" : id;
    }

    /**
     * The backend choice, its check and the annotation's guard know the backends only through their candidates. The
     * entry point's ordering after the connections' auto-configurations is the one exception, by name.
     */
    @Test
    void theNeutralPackageNamesNoClientAndNoBackend() throws URISyntaxException {
        Path classes = Path.of(LockBackends.class
                        .getProtectionDomain()
                        .getCodeSource()
                        .getLocation()
                        .toURI())
                .resolve("io/distlock/autoconfigure");
        try (Stream<Path> files = Files.list(classes)) {
            List<Path> neutral = files.filter(file -> file.toString().endsWith(".class"))
                    .filter(file -> !file.getFileName().toString().startsWith("DistributedLockAutoConfiguration"))
                    .toList();
            assertThat(neutral).hasSizeGreaterThan(10);
            for (Path file : neutral) {
                String constants = new String(Files.readAllBytes(file), java.nio.charset.StandardCharsets.ISO_8859_1)
                        .replace('/', '.');
                assertThat(CLIENTS).as(file.getFileName().toString()).noneMatch(constants::contains);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
