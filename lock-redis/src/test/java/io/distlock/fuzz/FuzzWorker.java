package io.distlock.fuzz;

import io.distlock.Lease;
import io.distlock.LockException;
import io.distlock.LockHandle;
import io.lettuce.core.ClientOptions;
import io.lettuce.core.cluster.ClusterClientOptions;
import io.lettuce.core.cluster.ClusterTopologyRefreshOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.springframework.data.redis.connection.RedisClusterConfiguration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A worker process of a fuzz run: {@link WorkerConfig} as arguments; prints {@value #READY} once connected, waits for
 * the run's start signal in the checker's Redis, runs its threads (or with asynchronous holders, as many chains of
 * acquisitions in flight) for the run's duration and prints its {@link Tally} summary line. Exits with 0, or 1 if it failed, 2 if worker threads hung (their stacks are printed), 3 if the start
 * signal never came.
 */
public final class FuzzWorker {

    static final String READY = "FUZZ-READY";
    static final String HUNG = "FUZZ-HUNG";

    /** How long after the run's end a thread may still be finishing its last section, waiting behind others. */
    static final Duration GRACE = Duration.ofSeconds(20);

    private static final Duration START_SIGNAL_WAIT = Duration.ofSeconds(120);
    /** Short, so that a warm-up lock whose release failed holds up the run's first sections only briefly. */
    private static final Lease WARM_UP_LEASE = Lease.fixed(Duration.ofSeconds(1));

    /** The checker's own commands: generous, so that a busy machine does not make the run inconclusive. */
    private static final Duration CHECKER_COMMAND_TIMEOUT = Duration.ofSeconds(10);

    /**
     * A periodic topology refresh, as an application on a cluster sets it
     * ({@code spring.data.redis.lettuce.cluster.refresh.period}).
     */
    private static final Duration CLUSTER_REFRESH_PERIOD = Duration.ofSeconds(5);

    private FuzzWorker() {}

    public static void main(String[] args) {
        int status;
        try {
            status = run(WorkerConfig.parse(args));
        } catch (InterruptedException | RuntimeException e) {
            e.printStackTrace(System.out);
            status = 1;
        }
        System.out.flush();
        // Lettuce and executor threads must not keep the process alive after its summary.
        System.exit(status);
    }

    private static int run(WorkerConfig config) throws InterruptedException {
        Duration lockTimeout = config.lockOptions().commandTimeout();
        List<LettuceConnectionFactory> lockConnections = new ArrayList<>();
        if (config.onCluster()) {
            lockConnections.add(connectCluster(config));
        } else if (config.onRedlock()) {
            // Like the auto-configuration's: a node that is down fails at once, so the others decide without it.
            config.redlockNodes().forEach(node -> lockConnections.add(connect(node, lockTimeout, true)));
        } else if (!config.kind().inStore()) {
            lockConnections.add(connect(config, lockTimeout));
        }
        LettuceConnectionFactory checkerConnections = connect(config, CHECKER_COMMAND_TIMEOUT);
        // On a cluster the checker reads lock keys through a cluster-aware client of its own, not the lock's; each read
        // with the lock's timeout, so that a read sent to a dead master fails no later than the lock's commands do. On
        // a Redlock group it reads every node through a client of its own, which fails at once on a node that is down.
        List<LettuceConnectionFactory> lockReads = new ArrayList<>();
        if (config.onCluster()) {
            lockReads.add(connectCluster(config));
        } else if (config.onRedlock()) {
            config.redlockNodes().forEach(node -> lockReads.add(connect(node, CHECKER_COMMAND_TIMEOUT, true)));
        }
        ExecutorService releaser = Executors.newFixedThreadPool(2, task -> {
            Thread thread = new Thread(task, "fuzz-releaser");
            thread.setDaemon(true);
            return thread;
        });
        try (LockUnderTest target = config.kind().inStore()
                ? FuzzLockFactory.of(config).open(config.storeAddress(), config.kind())
                : LockUnderTest.open(config.kind(), lockConnections, config.lockPrefix(), config.lockOptions())) {
            StringRedisTemplate checkerRedis = new StringRedisTemplate(checkerConnections);
            checkerRedis.afterPropertiesSet();
            CheckerKeys keys = new CheckerKeys(config.namespace());
            Tally tally = new Tally();
            LockView lockView = config.kind().inStore() ? target.storeView() : lockView(config, lockReads, tally);
            Checker checker = config.kind().paths()
                    ? new PathChecker(checkerRedis, keys, lockView)
                    : new SectionChecker(checkerRedis, keys, lockView);
            Workload workload = Workload.of(config.kind(), config.keyNames());
            if (config.onCluster() || config.onRedlock() || config.kind().inStore()) {
                connectToEveryMaster(target, lockView, config.keyNames());
            }
            System.out.println(READY + " process " + config.process());
            System.out.flush();
            if (!awaitStart(checkerRedis, keys)) {
                System.out.println(Tally.ERROR + " no start signal within " + START_SIGNAL_WAIT);
                return 3;
            }
            long endNanos = System.nanoTime() + TimeUnit.SECONDS.toNanos(config.seconds());
            SplittableRandom seeds = new SplittableRandom(config.seed());
            List<FuzzLoop> loops = new ArrayList<>();
            for (int t = 0; t < config.threads(); t++) {
                String name = "p" + config.process() + (config.asyncHolders() ? "a" : "t") + t;
                FuzzLoop loop = new FuzzLoop(target, checker, workload, tally, releaser, seeds.split(), name, endNanos);
                loops.add(t == 0 ? loop.openingWithRenewedHold() : loop);
            }
            int hung = config.asyncHolders()
                    ? runChains(loops, endNanos + GRACE.toNanos())
                    : runThreads(loops, config.process(), endNanos + GRACE.toNanos());
            for (int i = 0; i < hung; i++) {
                tally.add(Count.HUNG_THREADS);
            }
            System.out.println(tally.summaryLine());
            return hung > 0 ? 2 : 0;
        } finally {
            releaser.shutdownNow();
            lockConnections.forEach(LettuceConnectionFactory::destroy);
            checkerConnections.destroy();
            lockReads.forEach(LettuceConnectionFactory::destroy);
        }
    }

    private static LockView lockView(WorkerConfig config, List<LettuceConnectionFactory> lockReads, Tally tally) {
        List<StringRedisTemplate> templates = lockReads.stream()
                .map(factory -> {
                    StringRedisTemplate template = new StringRedisTemplate(factory);
                    template.afterPropertiesSet();
                    return template;
                })
                .toList();
        if (config.onCluster()) {
            return new ClusterLockView(templates.get(0), tally);
        }
        if (config.onRedlock()) {
            return new RedlockLockView(templates, tally);
        }
        return new SameRedisLockView();
    }

    /**
     * Takes and releases each key's lock once, and reads each key as the checker does, so that the lock's and the
     * checker's clients have found a cluster's topology and connected to every master, Redlock node or store before the
     * run starts, not in its first seconds. The checker does not see these acquisitions; they only advance the fencing
     * counters.
     */
    private static void connectToEveryMaster(LockUnderTest target, LockView lockView, List<String> keyNames)
            throws InterruptedException {
        for (String key : keyNames) {
            try {
                target.lock().tryAcquire(key, WARM_UP_LEASE).ifPresent(LockHandle::release);
                lockView.args(target.redisKey(key));
            } catch (LockException | LockView.Unreadable e) {
                // A first connection too slow for a busy machine, even for the lease: the run's sections go on.
                System.out.println("warming up on " + key + " failed: " + e);
            }
        }
    }

    private static boolean awaitStart(StringRedisTemplate redis, CheckerKeys keys) throws InterruptedException {
        long deadline = System.nanoTime() + START_SIGNAL_WAIT.toNanos();
        while (System.nanoTime() - deadline < 0) {
            if (Boolean.TRUE.equals(redis.hasKey(keys.go()))) {
                return true;
            }
            Thread.sleep(5);
        }
        return false;
    }

    private static int runThreads(List<FuzzLoop> loops, int process, long deadlineNanos) throws InterruptedException {
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < loops.size(); t++) {
            Thread thread = new Thread(loops.get(t), "fuzz-p" + process + "t" + t);
            threads.add(thread);
            thread.start();
        }
        return awaitThreads(threads, deadlineNanos);
    }

    /**
     * Runs each loop as a chain of asynchronous holders, all in flight at once, and waits for them until {@code
     * deadlineNanos}; prints those still running, and interrupts their sections.
     */
    private static int runChains(List<FuzzLoop> loops, long deadlineNanos) throws InterruptedException {
        ExecutorService holders = Executors.newCachedThreadPool(task -> {
            Thread thread = new Thread(task, "fuzz-holder");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<CompletableFuture<Void>> chains =
                    loops.stream().map(loop -> loop.runAsync(holders)).toList();
            try {
                CompletableFuture.allOf(chains.toArray(CompletableFuture[]::new))
                        .get(Math.max(1, deadlineNanos - System.nanoTime()), TimeUnit.NANOSECONDS);
            } catch (TimeoutException | ExecutionException e) {
                // A chain that has not ended is counted below; chains count their own failures and never fail.
            }
            int hung = 0;
            for (int a = 0; a < chains.size(); a++) {
                if (!chains.get(a).isDone()) {
                    hung++;
                    System.out.println(HUNG + " chain " + a + " still waiting for its lock or inside its section");
                }
            }
            return hung;
        } finally {
            holders.shutdownNow();
        }
    }

    /** Waits for the threads until {@code deadlineNanos}; prints and interrupts those still running. */
    private static int awaitThreads(List<Thread> threads, long deadlineNanos) throws InterruptedException {
        for (Thread thread : threads) {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadlineNanos - System.nanoTime())));
        }
        Map<Thread, StackTraceElement[]> stacks = Thread.getAllStackTraces();
        int hung = 0;
        for (Thread thread : threads) {
            if (thread.isAlive()) {
                hung++;
                StringBuilder stack = new StringBuilder(HUNG + " " + thread.getName() + " still running:");
                for (StackTraceElement frame : stacks.getOrDefault(thread, new StackTraceElement[0])) {
                    stack.append(" | at ").append(frame);
                }
                System.out.println(stack);
                thread.interrupt();
            }
        }
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(5));
        }
        return hung;
    }

    /** Connections to the checker's Redis, which also holds the locks unless they are on a cluster or Redlock. */
    private static LettuceConnectionFactory connect(WorkerConfig config, Duration commandTimeout) {
        return connect(config.checkerHost() + ":" + config.checkerPort(), commandTimeout, false);
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
        return started(new LettuceConnectionFactory(
                new RedisStandaloneConfiguration(
                        hostAndPort.substring(0, colon), Integer.parseInt(hostAndPort.substring(colon + 1))),
                client.build()));
    }

    /**
     * Connections to the Redis Cluster that holds the locks, following its topology as an application should: on
     * MOVED, ASK and reconnects, which Lettuce does by default, and every {@link #CLUSTER_REFRESH_PERIOD}, which
     * finds a promoted replica when its dead master gave no MOVED to hint at it.
     */
    private static LettuceConnectionFactory connectCluster(WorkerConfig config) {
        return started(new LettuceConnectionFactory(
                new RedisClusterConfiguration(config.clusterNodes()),
                LettuceClientConfiguration.builder()
                        .commandTimeout(config.lockOptions().commandTimeout())
                        .clientOptions(ClusterClientOptions.builder()
                                .topologyRefreshOptions(ClusterTopologyRefreshOptions.builder()
                                        .enablePeriodicRefresh(CLUSTER_REFRESH_PERIOD)
                                        .build())
                                .build())
                        .build()));
    }

    private static LettuceConnectionFactory started(LettuceConnectionFactory factory) {
        factory.afterPropertiesSet();
        factory.start();
        return factory;
    }
}
