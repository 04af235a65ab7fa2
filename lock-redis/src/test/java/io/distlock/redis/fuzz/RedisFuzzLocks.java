package io.distlock.redis.fuzz;

import io.distlock.Kind;
import io.distlock.Lock;
import io.distlock.redis.RedisLock;
import io.distlock.redis.Redlock;
import io.distlock.tck.fuzz.FuzzLockFactory;
import io.distlock.tck.fuzz.FuzzTarget;
import io.distlock.tck.fuzz.LockUnderTest;
import io.distlock.tck.fuzz.LockView;
import io.distlock.tck.fuzz.SectionMix;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jspecify.annotations.Nullable;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * Builds, in a fuzz worker, the Redis lock of a {@link LockKind} ({@link FuzzTarget#variant()}) on the servers of a
 * {@link Topology} ({@link FuzzTarget#address()}), configured by {@link LockOptions} ({@link FuzzTarget#options()}),
 * and the view the checker reads its keys through, on clients of the view's own: on one Redis ({@link
 * SameRedisLockView}), a cluster ({@link ClusterLockView}) or a Redlock group ({@link RedlockLockView}).
 */
public final class RedisFuzzLocks implements FuzzLockFactory {

    /** The view's reads of a Redlock node: generous, so that a busy machine does not make the run inconclusive. */
    private static final Duration NODE_READ_TIMEOUT = Duration.ofSeconds(10);

    /**
     * A periodic topology refresh, as an application on a cluster sets it
     * ({@code spring.data.redis.lettuce.cluster.refresh.period}).
     */
    private static final Duration CLUSTER_REFRESH_PERIOD = Duration.ofSeconds(5);

    /**
     * RedisLock documents its lock key as {@code {prefix + key}}, and Redlock uses it on every node; the naive locks
     * use the same layout.
     */
    /**
     * The window of the lock with local handover: shorter than the fuzz's short leases, so that runs end in Redis as
     * often as they hand over.
     */
    private static final Duration LOCAL_HANDOVER_WINDOW = Duration.ofMillis(20);

    /** What a semaphore key's hash of permits adds to its lock key, as {@link io.distlock.redis.SemaphoreLock} says. */
    private static final String PERMITS_SUFFIX = ":permits";

    static String redisKey(String prefix, String key) {
        return "{" + prefix + key + "}";
    }

    /**
     * In the path lock's Redis layout, the holder of exactly path {@code A/C} of tree {@code T} is the string key
     * <code>{prefix + T}/A/C/h</code> (the root's <code>{prefix + T}//h</code>), its value the owner token, its PTTL
     * the lease. The checker reads it for nothing more, as it reads a key's lock; should the layout change, sections
     * would find their lock gone and the run fail with early takeovers.
     *
     * @param path the canonical path, as a path lock's handle reports it
     */
    static String pathHolderKey(String prefix, String tree, String path) {
        return "{" + prefix + tree + "}/" + path + "/h";
    }

    @Override
    public LockUnderTest open(FuzzTarget target) {
        LockKind kind = LockKind.valueOf(target.variant());
        LockOptions options = LockOptions.of(target.options());
        Topology topology = Topology.parse(target.address());
        List<LettuceConnectionFactory> opened = new ArrayList<>();
        try {
            return open(kind, options, topology, target, opened);
        } catch (RuntimeException e) {
            opened.forEach(LettuceConnectionFactory::destroy);
            throw e;
        }
    }

    private static LockUnderTest open(
            LockKind kind,
            LockOptions options,
            Topology topology,
            FuzzTarget target,
            List<LettuceConnectionFactory> opened) {
        Duration lockTimeout = options.commandTimeout();
        List<LettuceConnectionFactory> lockConnections = new ArrayList<>();
        // The checker reads lock keys through a client of its own, not the lock's: on a cluster a cluster-aware one,
        // each
        // read with the lock's timeout, so that a read sent to a dead master fails no later than the lock's commands
        // do; on a Redlock group one for every node, which fails at once on a node that is down.
        List<LettuceConnectionFactory> lockReads = new ArrayList<>();
        LockView view;
        switch (topology.kind()) {
            case CLUSTER -> {
                lockConnections.add(started(connectCluster(topology.nodes(), lockTimeout), opened));
                lockReads.add(started(connectCluster(topology.nodes(), lockTimeout), opened));
                view = new ClusterLockView(template(lockReads.get(0)), target.counts());
            }
            case REDLOCK -> {
                // Like the auto-configuration's: a node that is down fails at once, so the others decide without it.
                topology.nodes()
                        .forEach(node -> lockConnections.add(started(connect(node, lockTimeout, true), opened)));
                topology.nodes()
                        .forEach(node -> lockReads.add(started(connect(node, NODE_READ_TIMEOUT, true), opened)));
                view = new RedlockLockView(
                        lockReads.stream().map(RedisFuzzLocks::template).toList(), target.counts());
            }
            default -> {
                lockConnections.add(started(connect(topology.nodes().get(0), lockTimeout, false), opened));
                lockReads.add(started(connect(topology.nodes().get(0), lockTimeout, false), opened));
                view = new SameRedisLockView(template(lockReads.get(0)));
            }
        }
        Runnable destroy = () -> opened.forEach(LettuceConnectionFactory::destroy);
        return locks(kind, lockConnections, target, options, view, destroy).build();
    }

    /**
     * The lock of {@code kind} on {@code connections}, one per Redlock node or a single one otherwise, which closes its
     * locks and then calls {@code destroy} for the worker's connections.
     */
    private static LockUnderTest.Builder locks(
            LockKind kind,
            List<LettuceConnectionFactory> connections,
            FuzzTarget target,
            LockOptions options,
            LockView view,
            Runnable destroy) {
        String prefix = target.keyPrefix();
        if (kind == LockKind.REDLOCK) {
            Redlock redlock = Redlock.builder(connections)
                    .keyPrefix(prefix)
                    .watchdogLease(target.watchdogLease())
                    .build();
            return keyedUnder(LockUnderTest.builder(redlock, view), prefix, prefix)
                    .onClose(closing(redlock::close, destroy));
        }
        LettuceConnectionFactory factory = connections.get(0);
        if (kind == LockKind.DISTLOCK
                || kind == LockKind.LOCAL_HANDOVER
                || kind == LockKind.FAIR
                || kind == LockKind.ONE_NODE_OF_REDLOCK
                || kind == LockKind.PATH_EXACT_ONLY) {
            RedisLock redisLock = kind == LockKind.LOCAL_HANDOVER
                    ? redisLock(factory, prefix, target, options, LOCAL_HANDOVER_WINDOW)
                    : redisLock(factory, prefix, target, options);
            Lock lock = kind == LockKind.FAIR ? redisLock.fair() : redisLock;
            return keyedUnder(LockUnderTest.builder(lock, view), prefix, prefix)
                    .onClose(closing(redisLock::close, destroy));
        }
        if (kind == LockKind.PATH) {
            RedisLock redisLock = redisLock(factory, prefix, target, options);
            String tree = target.treeName();
            return LockUnderTest.builder(redisLock.tree(tree), view)
                    .lockKeys((path, reading) -> pathHolderKey(prefix, tree, path))
                    .onClose(closing(redisLock::close, destroy));
        }
        if (kind == LockKind.READ_WRITE) {
            RedisLock writer = redisLock(factory, prefix, target, options);
            return keyedUnder(LockUnderTest.builder(writer, view).readers(writer.reading()), prefix, prefix)
                    .onClose(closing(writer::close, destroy));
        }
        if (kind == LockKind.SEMAPHORE || kind == LockKind.SEMAPHORE_ONE_TOO_MANY) {
            RedisLock lock = redisLock(factory, prefix, target, options);
            int permits = SectionMix.PERMITS_PER_KEY + (kind == LockKind.SEMAPHORE ? 0 : 1);
            return LockUnderTest.builder(lock, view)
                    .readers(Kind.SEMAPHORE.of(lock).permits(permits))
                    .lockKeys((key, permit) -> redisKey(prefix, key) + (permit ? PERMITS_SUFFIX : ""))
                    .onClose(closing(lock::close, destroy));
        }
        if (kind == LockKind.READERS_APART_FROM_WRITERS) {
            String apart = prefix + "readers-apart:";
            RedisLock writer = redisLock(factory, prefix, target, options);
            RedisLock readers = redisLock(factory, apart, target, options);
            return keyedUnder(LockUnderTest.builder(writer, view).readers(readers.reading()), prefix, apart)
                    .onClose(closing(
                            () -> {
                                readers.close();
                                writer.close();
                            },
                            destroy));
        }
        NaiveLock naive = new NaiveLock(template(factory), prefix, kind, target.watchdogLease());
        return keyedUnder(LockUnderTest.builder(naive, view), prefix, prefix).onClose(destroy);
    }

    /** Lock keys as {@link #redisKey}: under {@code readerPrefix} for a reader, under {@code prefix} otherwise. */
    private static LockUnderTest.Builder keyedUnder(LockUnderTest.Builder lock, String prefix, String readerPrefix) {
        return lock.lockKeys((key, reading) -> redisKey(reading ? readerPrefix : prefix, key));
    }

    private static RedisLock redisLock(
            LettuceConnectionFactory factory, String prefix, FuzzTarget target, LockOptions options) {
        return redisLock(factory, prefix, target, options, null);
    }

    private static RedisLock redisLock(
            LettuceConnectionFactory factory,
            String prefix,
            FuzzTarget target,
            LockOptions options,
            @Nullable Duration localHandoverWindow) {
        return RedisLock.builder(factory)
                .keyPrefix(prefix)
                .watchdogLease(target.watchdogLease())
                .replicaAcknowledgements(options.replicaAcks(), LockOptions.REPLICA_ACK_TIMEOUT)
                .localHandoverWindow(localHandoverWindow)
                .build();
    }

    private static Runnable closing(Runnable locks, Runnable connections) {
        return () -> {
            locks.run();
            connections.run();
        };
    }

    private static StringRedisTemplate template(LettuceConnectionFactory factory) {
        StringRedisTemplate template = new StringRedisTemplate(factory);
        template.afterPropertiesSet();
        return template;
    }

    /**
     * Connections to the standalone Redis at {@code hostAndPort}; with {@code failFast}, a command sent while the
     * connection is down fails at once instead of waiting for a reconnect, as the checker's reads of a killed node must.
     */
    private static LettuceConnectionFactory connect(String hostAndPort, Duration commandTimeout, boolean failFast) {
        int colon = hostAndPort.lastIndexOf(':');
        LettuceClientConfiguration.LettuceClientConfigurationBuilder client =
                LettuceClientConfiguration.builder().commandTimeout(commandTimeout);
        if (failFast) {
            client.clientOptions(ClientOptions.builder()
                    .disconnectedBehavior(ClientOptions.DisconnectedBehavior.REJECT_COMMANDS)
                    .build());
        }
        return new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(
                        hostAndPort.substring(0, colon), Integer.parseInt(hostAndPort.substring(colon + 1))),
                client.build());
    }

    /**
     * Connections to the Redis Cluster that holds the locks, following its topology as an application should: on
     * MOVED, ASK and reconnects, which Lettuce does by default, and every {@link #CLUSTER_REFRESH_PERIOD}, which
     * finds a promoted replica when its dead master gave no MOVED to hint at it.
     */
    private static LettuceConnectionFactory connectCluster(List<String> nodes, Duration commandTimeout) {
        return new LettuceConnectionFactory(
                new RedisClusterConfiguration(nodes),
                LettuceClientConfiguration.builder()
                        .commandTimeout(commandTimeout)
                        .clientOptions(ClusterClientOptions.builder()
                                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                                        .enablePeriodicRefresh(CLUSTER_REFRESH_PERIOD)
                                        .build())
                                .build())
                        .build());
    }

    private static LettuceConnectionFactory started(
            LettuceConnectionFactory factory, List<LettuceConnectionFactory> opened) {
        opened.add(factory);
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }

    /**
     * The Redis servers that hold a run's locks, as a worker's {@link FuzzTarget#address()} spells them: {@code
     * standalone:host:port} (one Redis), {@code cluster:host:port,...} (some nodes of a cluster, from
     * which the client finds the rest) or {@code redlock:host:port,...} (every independent master of a Redlock).
     *
     * @param kind how the servers hold the locks
     * @param nodes {@code host:port} of each
     */
    record Topology(Kind kind, List<String> nodes) {

        /** How a run's Redis servers hold its locks. */
        enum Kind {
            STANDALONE,
            CLUSTER,
            REDLOCK
        }

        Topology {
            nodes = List.copyOf(nodes);
            if (nodes.isEmpty() || (kind == Kind.STANDALONE && nodes.size() != 1)) {
                throw new IllegalArgumentException("no Redis servers for " + kind + ": " + nodes);
            }
        }

        static String standalone(String node) {
            return spelled(Kind.STANDALONE, List.of(node));
        }

        static String cluster(List<String> nodes) {
            return spelled(Kind.CLUSTER, nodes);
        }

        static String redlock(List<String> nodes) {
            return spelled(Kind.REDLOCK, nodes);
        }

        static Topology parse(String address) {
            int colon = address.indexOf(':');
            return new Topology(
                    Kind.valueOf(address.substring(0, colon).toUpperCase(Locale.ROOT)),
                    List.of(address.substring(colon + 1).split(",")));
        }

        private static String spelled(Kind kind, List<String> nodes) {
            return kind.name().toLowerCase(Locale.ROOT) + ":" + String.join(",", nodes);
        }
    }
}
