package io.distlock.bench.contender;

import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import org.springframework.integration.redis.util.RedisLockRegistry.RedisLockType;

/** Every contender the benchmarks know, by the id used on the command line and the label used in the results. */
public enum ContenderKind {
    DISTLOCK("distlock", "distlock", true),
    REDISSON("redisson", "Redisson", true),
    SI_SPIN("si-spin", "SI spin", true),
    SI_PUBSUB("si-pubsub", "SI pub/sub", true),
    SEEDS("seeds", "seeds' spin lock", true),
    BASELINE("baseline", "SET+DEL baseline", false);

    /** The lease Spring Integration's registry applies where a call gives none; every benchmark call gives one. */
    private static final Duration SPRING_INTEGRATION_DEFAULT_LEASE = Duration.ofSeconds(30);

    private final String id;
    private final String label;
    private final boolean lock;

    ContenderKind(String id, String label, boolean lock) {
        this.id = id;
        this.label = label;
        this.lock = lock;
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
     * Connects a new instance to Redis.
     *
     * @param redis the Redis under test; a contender connects in cluster mode to a cluster
     * @return the contender; close it when done
     */
    public Contender create(RedisNodes redis) {
        return switch (this) {
            case DISTLOCK -> new DistlockContender(redis);
            case REDISSON -> new RedissonContender(redis);
            case SI_SPIN ->
                new SpringIntegrationContender(redis, RedisLockType.SPIN_LOCK, SPRING_INTEGRATION_DEFAULT_LEASE);
            case SI_PUBSUB ->
                new SpringIntegrationContender(redis, RedisLockType.PUB_SUB_LOCK, SPRING_INTEGRATION_DEFAULT_LEASE);
            case SEEDS -> new SeedSpinLockContender(redis);
            case BASELINE -> new RoundTripBaseline(redis);
        };
    }
}
