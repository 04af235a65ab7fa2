package io.distlock.bench;

import io.distlock.bench.contender.ContenderKind;
import io.distlock.bench.contender.Topology;
import io.distlock.bench.redis.RedisTarget;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Where and with what the benchmarks ran, so that results can be compared across machines and versions.
 *
 * @param date when the run started
 * @param machine cores, CPU, operating system and memory
 * @param java the JVM of parent and workers
 * @param redisVersion the server's {@code redis_version}
 * @param topology whether the contenders ran on one server or on a Redis Cluster
 * @param redisProvider where the server came from
 * @param contenders each contender's label and what it is, with versions
 * @param load the machine's load average at the start and end, since other work on the machine skews results
 */
public record Environment(
        Instant date,
        String machine,
        String java,
        String redisVersion,
        Topology topology,
        String redisProvider,
        Map<String, String> contenders,
        String load) {

    /** Copies the contenders. */
    public Environment {
        contenders = new LinkedHashMap<>(contenders);
    }

    /**
     * Describes this machine and the contenders on this classpath.
     *
     * @param date when the run started
     * @param target the Redis under test
     * @param redisVersion the server's version
     * @param loadAtStart {@link #loadAverage()} at the start
     * @param otherBackends the servers of the other backends that the run started, each described
     * @return the environment, with the load average at the end read now
     */
    public static Environment describe(
            Instant date, RedisTarget target, String redisVersion, String loadAtStart, List<String> otherBackends) {
        Topology topology = target.nodes().topology();
        boolean cluster = topology == Topology.CLUSTER;
        Map<String, String> contenders = new LinkedHashMap<>();
        String lettuceClient = "Spring Data Redis " + Versions.springDataRedis() + ", Lettuce " + Versions.lettuce()
                + ", as managed by Spring Boot " + Versions.springBoot();
        String factory = cluster
                ? "cluster LettuceConnectionFactory (`RedisClusterConfiguration` of every node; topology refreshed"
                        + " every 5 s, as `spring.data.redis.lettuce.cluster.refresh.period=5s` sets it, and on MOVED,"
                        + " ASK and reconnects, Lettuce's default)"
                : "LettuceConnectionFactory";
        contenders.put(
                "distlock",
                "distlock " + Versions.distlock() + " `RedisLock`, default settings, `Lease.fixed(...)`, on a "
                        + factory + " (" + lettuceClient + ")");
        contenders.put(
                ContenderKind.DISTLOCK_LOCAL_HANDOVER.label(),
                "as distlock, with local handover (`localHandoverWindow(Duration.ofMillis("
                        + ContenderKind.LOCAL_HANDOVER_WINDOW.toMillis() + "))`)");
        contenders.put(
                "distlock async",
                "distlock " + Versions.distlock() + " `RedisLock`, default settings, `tryAcquireAsync(key,"
                        + " Lease.fixed(...), wait)`, the critical section in the completion callback, then `releaseAsync()`,"
                        + " the next acquisition started from there; as many acquisitions in flight as the scenario has"
                        + " threads, no thread waiting for any of them; on a " + factory + " (" + lettuceClient + ")");
        for (ContenderKind redlock : List.of(ContenderKind.REDLOCK_3, ContenderKind.REDLOCK_5)) {
            contenders.put(
                    redlock.label(),
                    "distlock " + Versions.distlock() + " `Redlock`, default settings, `Lease.fixed(...)`, over "
                            + redlock.redlockNodes() + " throwaway standalone servers of its own, started like the"
                            + " standalone target (not the target itself; the smaller Redlock uses the first of the"
                            + " larger one's servers), one LettuceConnectionFactory each, configured like distlock's");
        }
        contenders.put(
                "Redisson",
                "Redisson " + Versions.redisson() + " `RLock`, default `Config` "
                        + (cluster ? "with `useClusterServers()` and every node's address" : "(single server)")
                        + ", `tryLock(wait, lease, MILLISECONDS)` + `unlock()`");
        contenders.put(
                "distlock + Micrometer",
                "distlock " + Versions.distlock() + " `RedisLock` telling what it does to its Micrometer meters and"
                        + " observations (an in-memory registry, observations handled by Micrometer's meter handler,"
                        + " as with Spring Boot's Actuator and no tracer), otherwise as distlock");
        contenders.put(
                "Redisson async",
                "Redisson " + Versions.redisson() + " `RLock` on a client configured as Redisson's,"
                        + " `tryLockAsync(wait, lease, MILLISECONDS, ownerId)` + `unlockAsync(ownerId)`, an owner id of"
                        + " its own per acquisition (Redisson names owners by thread id), driven like distlock async");
        contenders.put(
                "Redisson reactive",
                "Redisson " + Versions.redisson() + " `RLockReactive` from `RedissonClient.reactive()`,"
                        + " `tryLock(wait, lease, MILLISECONDS, ownerId)` + `unlock(ownerId)` as `Mono`s, an owner id"
                        + " of its own per acquisition, driven like distlock async");
        contenders.put(
                ContenderKind.DISTLOCK_JDK.label(),
                "distlock " + Versions.distlock() + " `RedisLock.asJavaLock(key, Lease.fixed(...))`, one"
                        + " `java.util.concurrent.locks.Lock` view per key shared by every thread, `tryLock(wait)` +"
                        + " `unlock()`, otherwise as distlock");
        contenders.put(
                ContenderKind.DISTLOCK_JDK_THREAD.label(),
                "as distlock asJavaLock, but one view per key and thread, and `lock()` + `unlock()`");
        contenders.put(
                ContenderKind.DISTLOCK_JDK_CALL.label(),
                "as distlock asJavaLock, but a new view for every acquisition (as Redisson's users write"
                        + " `getLock(name).lock()`), and `lock()` + `unlock()`");
        contenders.put(
                ContenderKind.DISTLOCK_JDK_INTERRUPTIBLY.label(),
                "as distlock asJavaLock per thread, but `lockInterruptibly()` + `unlock()`");
        contenders.put(
                "distlock fair", "distlock " + Versions.distlock() + " `RedisLock.fair()`, otherwise as distlock");
        contenders.put(
                "Redisson fair",
                "Redisson " + Versions.redisson()
                        + " `getFairLock(...)` on the same client as Redisson's, the same calls");
        contenders.put(
                "distlock read-write",
                "distlock " + Versions.distlock() + " reads through `RedisLock.reading()`, writes through the"
                        + " `RedisLock` itself, otherwise as distlock");
        contenders.put(
                "Redisson read-write",
                "Redisson " + Versions.redisson() + " `getReadWriteLock(...)`, `readLock()` for reads and"
                        + " `writeLock()` for writes, on the same client as Redisson's, the same calls");
        contenders.put(
                "SI spin",
                "spring-integration-redis " + Versions.springIntegration() + " `RedisLockRegistry`, default spin mode "
                        + "(100 ms between tries), `tryLock(wait, lease)`, on its own " + factory);
        contenders.put(
                "SI pub/sub",
                "spring-integration-redis " + Versions.springIntegration() + " `RedisLockRegistry` with "
                        + "`RedisLockType.PUB_SUB_LOCK`, on its own " + factory);
        contenders.put(
                "seeds' spin lock",
                "`SET key token NX PX lease`, 50 ms sleep between tries, Lua compare-and-delete, on a "
                        + "StringRedisTemplate on a " + factory + " (" + lettuceClient + ")");
        contenders.put(
                "distlock path lock",
                "distlock " + Versions.distlock() + " `PathLock` from `RedisLock.tree(...)`, default settings,"
                        + " `tryAcquire(path, Lease.fixed(...), wait)`, on a " + factory + " (" + lettuceClient + ")");
        contenders.put(
                "seed folder lock",
                "the seed article's folder lock: its `getFileLock` / `releaseFileLock` Lua scripts as published"
                        + " (`HKEYS` over every lock of the project and `string.find` on each, the client's clock as"
                        + " lock time), one try without waiting, through `DefaultRedisScript` on a StringRedisTemplate"
                        + " on a " + factory + " (" + lettuceClient + ")");
        contenders.put(
                ContenderKind.DISTLOCK_SEMAPHORE.label(),
                "distlock " + Versions.distlock() + " `Kind.SEMAPHORE.of(redisLock).permits("
                        + ContenderKind.SEMAPHORE_PERMITS + ")`, `tryAcquire(key, Lease.fixed(...), wait)`, otherwise"
                        + " as distlock");
        contenders.put(
                ContenderKind.REDISSON_SEMAPHORE.label(),
                "Redisson " + Versions.redisson() + " `getPermitExpirableSemaphore(...)` on the same client as"
                        + " Redisson's, `trySetPermits(" + ContenderKind.SEMAPHORE_PERMITS + ")` once per process and"
                        + " key, `tryAcquire(wait, lease, MILLISECONDS)` + `release(permitId)`");
        OtherBackendContenders.describe(otherBackends).forEach(contenders::put);
        contenders.put(
                "SET+DEL baseline",
                "not a lock: one `SET` and one `DEL` per operation on a StringRedisTemplate configured like distlock's");
        String load = "1/5/15-minute load average " + loadAtStart + " at the start, " + loadAverage() + " at the end";
        return new Environment(
                date,
                describeThisMachine(),
                describeJava(),
                redisVersion,
                topology,
                target.provider(),
                contenders,
                load);
    }

    /**
     * Reads the load averages of the last 1, 5 and 15 minutes.
     *
     * @return for example {@code 0.52 0.31 0.20}, or "unknown" where {@code /proc/loadavg} does not exist
     */
    public static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg")).trim().split("\\s+");
            return fields[0] + " " + fields[1] + " " + fields[2];
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }

    /**
     * Describes this machine.
     *
     * @return cores, CPU model, operating system and memory, for example {@code 2 cores (AMD EPYC 7B13), Linux ...}
     */
    public static String describeThisMachine() {
        long memory = ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
                .getTotalMemorySize();
        return String.format(
                Locale.ROOT,
                "%d cores (%s), %s %s %s, %.1f GiB RAM",
                Runtime.getRuntime().availableProcessors(),
                cpuModel(),
                System.getProperty("os.name"),
                System.getProperty("os.version"),
                System.getProperty("os.arch"),
                memory / (1024.0 * 1024 * 1024));
    }

    private static String describeJava() {
        return "Java " + System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ", "
                + System.getProperty("java.vendor") + ")";
    }

    private static String cpuModel() {
        Path cpuInfo = Path.of("/proc/cpuinfo");
        if (!Files.isReadable(cpuInfo)) {
            return "CPU model unknown";
        }
        try {
            List<String> lines = Files.readAllLines(cpuInfo);
            return lines.stream()
                    .filter(line -> line.startsWith("model name"))
                    .map(line -> line.substring(line.indexOf(':') + 1).trim())
                    .findFirst()
                    .orElse("CPU model unknown");
        } catch (IOException e) {
            return "CPU model unknown";
        }
    }
}
