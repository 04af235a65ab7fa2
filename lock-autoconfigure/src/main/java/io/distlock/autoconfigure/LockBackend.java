package io.distlock.autoconfigure;

/** The stores that distlock's auto-configuration can build its {@link io.distlock.Lock} bean on. */
public enum LockBackend {

    /** Redis, through the application's Lettuce connection, or Redlock over {@code distlock.redlock.nodes}. */
    REDIS,

    /** A table in the application's relational database, through its {@code DataSource}; needs lock-jdbc. */
    JDBC,

    /** Apache ZooKeeper, through a {@code CuratorFramework} bean or {@code distlock.zookeeper.*}; needs lock-zookeeper. */
    ZOOKEEPER,

    /**
     * This JVM's memory, for tests and local runs: excludes nothing across processes. Chosen only when {@code
     * distlock.backend=in-memory} names it, never because nothing else is present.
     */
    IN_MEMORY;

    /** The value of {@code distlock.backend} that chooses this backend, as Spring Boot binds it to this enum. */
    String propertyValue() {
        return name().toLowerCase(java.util.Locale.ROOT).replace('_', '-');
    }
}
