package io.distlock.autoconfigure;

/** The stores that distlock's auto-configuration can build its {@link io.distlock.Lock} bean on. */
public enum LockBackend {

    /** Redis, through the application's Lettuce connection, or Redlock over {@code distlock.redlock.nodes}. */
    REDIS,

    /** A table in the application's relational database, through its {@code DataSource}; needs lock-jdbc. */
    JDBC,

    /** Apache ZooKeeper, through a {@code CuratorFramework} bean or {@code distlock.zookeeper.*}; needs lock-zookeeper. */
    ZOOKEEPER;

    /** The value of {@code distlock.backend} that chooses this backend. */
    String propertyValue() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
