package io.distlock.bench.contender;

/** The kind of server a contender keeps its locks in; the run starts one of each kind its contenders need. */
public enum LockStore {
    /** Redis: the target, or a Redlock's masters. */
    REDIS,
    /** A PostgreSQL database, reached through JDBC. */
    POSTGRESQL,
    /** A ZooKeeper ensemble, reached through Curator. */
    ZOOKEEPER
}
