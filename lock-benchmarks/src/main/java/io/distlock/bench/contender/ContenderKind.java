package io.distlock.bench.contender;

import io.distlock.bench.contender.RedissonAsyncContender.Api;
import io.distlock.bench.contender.RedissonContender.Kind;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;

/** Every contender the benchmarks know, by the id used on the command line and the label used in the results. */
public enum ContenderKind {
    DISTLOCK("distlock", "distlock", true, 0),
    DISTLOCK_CLASSIC("distlock-classic", "distlock classic pub/sub", true, 0),
    DISTLOCK_LOCAL_HANDOVER("distlock-local-handover", "distlock local handover", true, 0),
    DISTLOCK_JDK("distlock-jdk", "distlock asJavaLock", true, 0),
    DISTLOCK_JDK_THREAD("distlock-jdk-thread", "distlock asJavaLock per thread", true, 0),
    DISTLOCK_JDK_CALL("distlock-jdk-call", "distlock asJavaLock per call", true, 0),
    DISTLOCK_JDK_INTERRUPTIBLY(
            "distlock-jdk-interruptibly", "distlock asJavaLock per thread, lockInterruptibly", true, 0),
    DISTLOCK_ASYNC("distlock-async", "distlock async", true, 0),
    DISTLOCK_OBSERVED("distlock-observed", "distlock + Micrometer", true, 0),
    DISTLOCK_FAIR("distlock-fair", "distlock fair", true, 0),
    DISTLOCK_RW("distlock-rw", "distlock read-write", true, 0),
    DISTLOCK_PATH("distlock-path", "distlock path lock", true, 0),
    DISTLOCK_SEMAPHORE("distlock-semaphore", "distlock semaphore", true, 0),
    REDLOCK_3("redlock-3", "Redlock, 3 nodes", true, 3),
    REDLOCK_5("redlock-5", "Redlock, 5 nodes", true, 5),
    REDISSON("redisson", "Redisson", true, 0),
    REDISSON_ASYNC("redisson-async", "Redisson async", true, 0),
    REDISSON_REACTIVE("redisson-reactive", "Redisson reactive", true, 0),
    REDISSON_FAIR("redisson-fair", "Redisson fair", true, 0),
    REDISSON_RW("redisson-rw", "Redisson read-write", true, 0),
    REDISSON_SEMAPHORE("redisson-semaphore", "Redisson permit-expirable semaphore", true, 0),
    SI_SPIN("si-spin", "SI spin", true, 0),
    SI_PUBSUB("si-pubsub", "SI pub/sub", true, 0),
    SEEDS("seeds", "seeds' spin lock", true, 0),
    SEED_FOLDER("seed-folder-lock", "seed folder lock", true, 0),
    BASELINE("baseline", "SET+DEL baseline", false, 0),
    DISTLOCK_JDBC("distlock-jdbc", "distlock JDBC", LockStore.POSTGRESQL),
    SI_JDBC("si-jdbc", "SI JDBC", LockStore.POSTGRESQL),
    DISTLOCK_ZOOKEEPER("distlock-zookeeper", "distlock ZooKeeper", LockStore.ZOOKEEPER),
    CURATOR_MUTEX("curator-mutex", "Curator mutex", LockStore.ZOOKEEPER),
    DISTLOCK_JDBC_FAIR("distlock-jdbc-fair", "distlock JDBC fair", LockStore.POSTGRESQL),
    DISTLOCK_JDBC_RW("distlock-jdbc-rw", "distlock JDBC read-write", LockStore.POSTGRESQL),
    DISTLOCK_JDBC_SEMAPHORE("distlock-jdbc-semaphore", "distlock JDBC semaphore", LockStore.POSTGRESQL),
    DISTLOCK_ZOOKEEPER_SEMAPHORE("distlock-zookeeper-semaphore", "distlock ZooKeeper semaphore", LockStore.ZOOKEEPER),
    CURATOR_SEMAPHORE("curator-semaphore", "Curator semaphore", LockStore.ZOOKEEPER),
    DISTLOCK_ZOOKEEPER_RW("distlock-zookeeper-rw", "distlock ZooKeeper read-write", LockStore.ZOOKEEPER),
    CURATOR_RW("curator-rw", "Curator read-write", LockStore.ZOOKEEPER);

    /** The window of the local handover contender: the benchmarks' sections last well under it. */
    public static final Duration LOCAL_HANDOVER_WINDOW = Duration.ofMillis(100);

    /** How many permits a key of the semaphore contenders has. */
    public static final int SEMAPHORE_PERMITS = 3;

    /** The lease Spring Integration's registry applies where a call gives none; every benchmark call gives one. */
    private static final Duration SPRING_INTEGRATION_DEFAULT_LEASE = Duration.ofSeconds(30);

    private final String id;
    private final String label;
    private final boolean lock;
    private final int redlockNodes;
    private final LockStore store;

    ContenderKind(String id, String label, boolean lock, int redlockNodes) {
        this(id, label, lock, redlockNodes, LockStore.REDIS);
    }

    ContenderKind(String id, String label, LockStore store) {
        this(id, label, true, 0, store);
    }

    ContenderKind(String id, String label, boolean lock, int redlockNodes, LockStore store) {
        this.id = id;
        this.label = label;
        this.lock = lock;
        this.redlockNodes = redlockNodes;
        this.store = store;
    }

    /**
     * Finds a contender by its id.
     *
     * @param id for example {@code si-pubsub}
     * @return the contender
     * @throws IllegalArgumentException naming the known ids
     */
    public static ContenderKind byId(String id) {
        String wanted = id.trim().toLowerCase(Locale.ROOT);
        return Arrays.stream(values())
                .filter(kind -> kind.id.equals(wanted))
                .findFirst()
                .orElseThrow(() -> new IllegalArgumentException("unknown contender '" + id + "'; known: "
                        + Arrays.stream(values()).map(ContenderKind::id).toList()));
    }

    /**
     * The id used on the command line and between processes.
     *
     * @return the id
     */
    public String id() {
        return id;
    }

    /**
     * The name shown in tables and charts.
     *
     * @return the label
     */
    public String label() {
        return label;
    }

    /**
     * Whether this contender is a lock; the baseline is not and takes no part in the contended scenarios.
     *
     * @return true for a lock
     */
    public boolean isLock() {
        return lock;
    }

    /**
     * Whether this is distlock's own lock through its {@code java.util.concurrent.locks.Lock} view, in one of the ways
     * users hold views.
     *
     * @return true for the view contenders
     */
    public boolean isJavaLockView() {
        return this == DISTLOCK_JDK
                || this == DISTLOCK_JDK_THREAD
                || this == DISTLOCK_JDK_CALL
                || this == DISTLOCK_JDK_INTERRUPTIBLY;
    }

    /**
     * Whether the contender waits for a key without limit, as {@code java.util.concurrent.locks.Lock.lock()} and
     * {@code lockInterruptibly()} do: it never gives up after the workload's wait.
     *
     * @return true for the views locked with {@code lock()} or {@code lockInterruptibly()}
     */
    public boolean waitsWithoutLimit() {
        return this == DISTLOCK_JDK_THREAD || this == DISTLOCK_JDK_CALL || this == DISTLOCK_JDK_INTERRUPTIBLY;
    }

    /**
     * Whether this contender is distlock's {@code Redlock}, which locks on independent servers of its own instead of
     * the target, and is compared with single-node distlock rather than counted as a peer.
     *
     * @return true for a Redlock contender
     */
    public boolean isRedlock() {
        return redlockNodes > 0;
    }

    /**
     * Whether this contender is distlock with sharded pub/sub turned off, which differs from plain distlock only on a
     * Redis Cluster: it runs only where {@code bench.contenders} names it, and is compared with plain distlock, not
     * counted as a peer.
     *
     * @return true for distlock with classic pub/sub
     */
    public boolean isClassicPubSubVariant() {
        return this == DISTLOCK_CLASSIC;
    }

    /**
     * Whether this contender shares the lock between readers; such contenders run only in the read-heavy scenario, on
     * Redis and on ZooKeeper.
     *
     * @return true for a read-write lock
     */
    public boolean isReadWrite() {
        return this == DISTLOCK_RW
                || this == REDISSON_RW
                || this == DISTLOCK_JDBC_RW
                || this == DISTLOCK_ZOOKEEPER_RW
                || this == CURATOR_RW;
    }

    /**
     * Whether this contender is a semaphore of {@link #SEMAPHORE_PERMITS} permits a key; such contenders run only in
     * the semaphore scenario, and only they run there.
     *
     * @return true for a semaphore
     */
    public boolean isSemaphore() {
        return this == DISTLOCK_SEMAPHORE
                || this == REDISSON_SEMAPHORE
                || this == DISTLOCK_JDBC_SEMAPHORE
                || this == DISTLOCK_ZOOKEEPER_SEMAPHORE
                || this == CURATOR_SEMAPHORE;
    }

    /**
     * Whether this contender is measured through a non-blocking API ({@link AsyncContender}): its acquisitions are
     * kept in flight by completion callbacks instead of waited for by threads. Such contenders run where the critical
     * section needs no thread either (scenarios 1 to 3), and are compared with each other and with the blocking
     * contenders, not counted as peers of the blocking targets.
     *
     * @return true for an asynchronous or reactive contender
     */
    public boolean isAsync() {
        return this == DISTLOCK_ASYNC || this == REDISSON_ASYNC || this == REDISSON_REACTIVE;
    }

    /**
     * Whether this contender locks paths in a tree; such contenders run only in the path scenario, and only they run
     * there.
     *
     * @return true for a path lock
     */
    public boolean isPath() {
        return this == DISTLOCK_PATH || this == SEED_FOLDER;
    }

    /**
     * Where this contender keeps its locks.
     *
     * @return Redis for every contender but those of the other backends
     */
    public LockStore store() {
        return store;
    }

    /**
     * Whether this contender locks in a store other than Redis; such contenders run in scenarios 1 and 3, against
     * distlock on Redis, and are compared in a section of their own rather than counted as Redis peers.
     *
     * @return true for a contender on PostgreSQL or ZooKeeper
     */
    public boolean isOtherBackend() {
        return store != LockStore.REDIS;
    }

    /**
     * How many independent Redis masters this contender locks on.
     *
     * @return the Redlock's node count, or 0 for a contender that runs on the target
     */
    public int redlockNodes() {
        return redlockNodes;
    }

    /**
     * Connects a new instance of a contender that locks on Redis.
     *
     * @param redis the Redis under test; a contender connects in cluster mode to a cluster, and a Redlock to each of
     *     its independent masters
     * @return the contender; close it when done
     */
    public Contender create(RedisNodes redis) {
        return create(new ContenderTarget(redis, null));
    }

    /**
     * Connects a new instance to what it locks on.
     *
     * @param target the Redis under test and, for a contender of another backend, its server
     * @return the contender; close it when done
     * @throws IllegalArgumentException if a contender of another backend is given no server
     */
    public Contender create(ContenderTarget target) {
        RedisNodes redis = target.redis();
        return switch (this) {
            case DISTLOCK -> new DistlockContender(redis, false, false);
            case DISTLOCK_CLASSIC -> DistlockContender.classicPubSub(redis);
            case DISTLOCK_LOCAL_HANDOVER -> DistlockContender.localHandover(redis);
            case DISTLOCK_JDK -> new DistlockJavaLockContender(redis, DistlockJavaLockContender.Views.SHARED);
            case DISTLOCK_JDK_THREAD ->
                new DistlockJavaLockContender(redis, DistlockJavaLockContender.Views.PER_THREAD);
            case DISTLOCK_JDK_CALL -> new DistlockJavaLockContender(redis, DistlockJavaLockContender.Views.PER_CALL);
            case DISTLOCK_JDK_INTERRUPTIBLY ->
                new DistlockJavaLockContender(redis, DistlockJavaLockContender.Views.PER_THREAD_INTERRUPTIBLY);
            case DISTLOCK_ASYNC -> new DistlockAsyncContender(redis);
            case DISTLOCK_OBSERVED -> new DistlockContender(redis, MicrometerObservers.create());
            case DISTLOCK_FAIR -> new DistlockContender(redis, true, false);
            case DISTLOCK_RW -> new DistlockContender(redis, false, true);
            case DISTLOCK_PATH -> new DistlockPathContender(redis);
            case DISTLOCK_SEMAPHORE -> DistlockContender.semaphore(redis, SEMAPHORE_PERMITS);
            case REDLOCK_3, REDLOCK_5 -> new RedlockContender(redis);
            case REDISSON -> new RedissonContender(redis, Kind.PLAIN);
            case REDISSON_ASYNC -> new RedissonAsyncContender(redis, Api.ASYNC);
            case REDISSON_REACTIVE -> new RedissonAsyncContender(redis, Api.REACTIVE);
            case REDISSON_FAIR -> new RedissonContender(redis, Kind.FAIR);
            case REDISSON_RW -> new RedissonContender(redis, Kind.READ_WRITE);
            case REDISSON_SEMAPHORE -> new RedissonSemaphoreContender(redis, SEMAPHORE_PERMITS);
            case SI_SPIN ->
                new SpringIntegrationContender(redis, RedisLockType.SPIN_LOCK, SPRING_INTEGRATION_DEFAULT_LEASE);
            case SI_PUBSUB ->
                new SpringIntegrationContender(redis, RedisLockType.PUB_SUB_LOCK, SPRING_INTEGRATION_DEFAULT_LEASE);
            case SEEDS -> new SeedSpinLockContender(redis);
            case SEED_FOLDER -> new SeedFolderLockContender(redis);
            case BASELINE -> new RoundTripBaseline(redis);
            case DISTLOCK_JDBC -> StoreLockContender.jdbc(target.backend(this), 0);
            case SI_JDBC -> new JdbcLockRegistryContender(target.backend(this));
            case DISTLOCK_ZOOKEEPER -> StoreLockContender.zooKeeper(target.backend(this), 0);
            case CURATOR_MUTEX -> new CuratorMutexContender(target.backend(this));
            case DISTLOCK_JDBC_FAIR -> StoreLockContender.jdbcFair(target.backend(this));
            case DISTLOCK_JDBC_RW -> StoreLockContender.jdbcReadWrite(target.backend(this));
            case DISTLOCK_JDBC_SEMAPHORE -> StoreLockContender.jdbc(target.backend(this), SEMAPHORE_PERMITS);
            case DISTLOCK_ZOOKEEPER_SEMAPHORE -> StoreLockContender.zooKeeper(target.backend(this), SEMAPHORE_PERMITS);
            case CURATOR_SEMAPHORE -> new CuratorSemaphoreContender(target.backend(this), SEMAPHORE_PERMITS);
            case DISTLOCK_ZOOKEEPER_RW -> StoreLockContender.zooKeeperReadWrite(target.backend(this));
            case CURATOR_RW -> new CuratorReadWriteContender(target.backend(this));
        };
    }
}
