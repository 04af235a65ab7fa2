package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.MultiLockHandle;
import io.distlock.monitor.BackendState;
import io.distlock.redis.internal.engine.EvictionPolicyCheck;
import io.distlock.redis.internal.scripts.LockScripts;
import io.distlock.redis.internal.scripts.RedisKeys;
import io.distlock.test.redis.TestRedis;
import io.distlock.test.redis.TestRedisCluster;
import io.lettuce.core.cluster.SlotHash;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.LoggerFactory;

/**
 * distlock on a real Redis Cluster of three masters with one replica each: every script with keys on every master,
 * batched renewals, release notifications between instances, and a slot moved while its lock is held. The contract
 * suite on a cluster is {@link RedisLockClusterContractTest}; a master killed while locks are held is {@link
 * RedisLockClusterFailoverTest}.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class RedisLockClusterTest {

    private static final Duration LONG_LEASE = Duration.ofSeconds(30);
    private static final Duration WAIT = Duration.ofSeconds(10);
    /** Far below {@link #LONG_LEASE}: a waiter this fast was woken by the release, not by the lease running out. */
    private static final Duration WOKEN_WITHIN = Duration.ofSeconds(3);

    private static TestRedisCluster cluster;

    private final RedisClients clients = new RedisClients(cluster);
    private final String base = "cluster:" + UUID.randomUUID() + ":";

    @BeforeAll
    static void startCluster() {
        // No test here waits for a failover, and the bus message counts need the links between a master and its
        // replica up: with the default 1 s node timeout a loaded machine drops and reconnects them, and a SPUBLISH sent
        // meanwhile reaches no replica (seen once in a full build: 0 instead of 1 message per release).
        cluster = TestRedisCluster.builder().nodeTimeout(Duration.ofSeconds(15)).start();
    }

    @AfterAll
    static void stopCluster() {
        cluster.close();
    }

    @AfterEach
    void closeClients() throws Exception {
        clients.close();
    }

    @Test
    void everyScriptWorksWithKeysOnEveryMaster() throws Exception {
        RedisLock lock = clients.lock();
        RedisLock other = clients.lock();
        List<String> keys = keysOnEveryMaster(20);

        for (String key : keys) {
            LockHandle first = lock.tryAcquire(key, Lease.fixed(LONG_LEASE)).orElseThrow();
            assertThat(other.tryAcquire(key)).as("a held lock on %s", key).isEmpty();
            first.extend(Duration.ofSeconds(40));
            assertThat(first.isHeld()).isTrue();
            assertThat(first.remainingLease()).isGreaterThan(LONG_LEASE);
            first.release();
            assertThat(first.isHeld()).isFalse();

            LockHandle second = other.tryAcquire(key, Lease.fixed(LONG_LEASE)).orElseThrow();
            assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
            second.release();
        }
    }

    @ParameterizedTest(name = "sharded pub/sub: {0}")
    @ValueSource(booleans = {true, false})
    void releasesHandOverWithinAnInstanceAndWakeWaitersOfAnotherOnEveryMaster(boolean sharded) throws Exception {
        RedisLock lock = clients.lock(builder -> builder.shardedPubSub(sharded));
        RedisLock other = clients.lock(builder -> builder.shardedPubSub(sharded));

        for (String key : keysOnEveryMaster(2)) {
            LockHandle held = lock.acquire(key, Lease.fixed(LONG_LEASE));
            CompletableFuture<Optional<LockHandle>> sameInstance = waitFor(lock, key);
            CompletableFuture<Optional<LockHandle>> otherInstance = waitFor(other, key);
            // Once waiters of both instances have tried, the key carries the mark of several instances' waiters.
            TestRedis master = cluster.masterOf(redisKey(key));
            await().atMost(WAIT)
                    .until(() -> master.command("GET", redisKey(key)).endsWith("*"));

            held.release();
            LockHandle handedOver = sameInstance
                    .get(WOKEN_WITHIN.toMillis(), TimeUnit.MILLISECONDS)
                    .orElseThrow();
            assertThat(handedOver.fencingToken()).isGreaterThan(held.fencingToken());
            handedOver.release();

            LockHandle woken = otherInstance
                    .get(WOKEN_WITHIN.toMillis(), TimeUnit.MILLISECONDS)
                    .orElseThrow();
            assertThat(woken.fencingToken()).isGreaterThan(handedOver.fencingToken());
            woken.release();
        }
    }

    @Test
    void keysSharingASlotAreTakenInOneScriptAndKeysOfSeveralSlotsOneByOne() throws Exception {
        RedisLock lock = clients.lock();
        RedisLock other = clients.lock();
        String first = base + "{transfer}:a";
        String second = base + "{transfer}:b";
        assertThat(SlotHash.getSlot(redisKey(first))).isEqualTo(SlotHash.getSlot(redisKey(second)));
        LockHandle held = other.tryAcquire(second, Lease.fixed(LONG_LEASE)).orElseThrow();

        assertThat(lock.tryAcquireAll(List.of(first, second), Lease.fixed(LONG_LEASE), Duration.ZERO))
                .isEmpty();
        assertThat(cluster.masterOf(redisKey(first)).command("EXISTS", RedisKeys.fenceKey(redisKey(first))))
                .as("one script saw the held key before taking any: the first key's counter never counted")
                .isEqualTo("0");
        held.release();
        MultiLockHandle both = lock.tryAcquireAll(List.of(first, second), Lease.fixed(LONG_LEASE), Duration.ZERO)
                .orElseThrow();
        assertThat(both.fencingToken(second)).isGreaterThan(held.fencingToken());
        both.release();

        List<String> apart =
                keysOnEveryMaster(1).subList(0, 2).stream().sorted().toList();
        LockHandle heldApart =
                other.tryAcquire(apart.get(1), Lease.fixed(LONG_LEASE)).orElseThrow();
        assertThat(lock.tryAcquireAll(apart, Lease.fixed(LONG_LEASE), Duration.ZERO))
                .isEmpty();
        TestRedis firstMaster = cluster.masterOf(redisKey(apart.get(0)));
        assertThat(firstMaster.command("EXISTS", RedisKeys.fenceKey(redisKey(apart.get(0)))))
                .as("keys of two slots are taken one by one: the first was taken and given back")
                .isEqualTo("1");
        assertThat(firstMaster.command("EXISTS", redisKey(apart.get(0)))).isEqualTo("0");
        heldApart.release();
    }

    @Test
    void watchdogRenewsLeasesOnEveryMasterInBatches() throws Exception {
        // Held past its first lease, which only renewals every 500 ms can do. The lease leaves 7.5 s for a renewal
        // round: a loaded 2-core machine stalled one for about 2 s, and a 2 s lease was lost (4,890 ms after the
        // grant); the slower kind of 2-core machine, with the cluster fuzz in the other fork, lost a 4 s lease
        // (5,353 ms after the grant).
        RedisLock lock = clients.lock(
                builder -> builder.watchdogLease(Duration.ofSeconds(8)).renewInterval(Duration.ofMillis(500)));
        List<LockHandle> holds = new ArrayList<>();
        for (String key : keysOnEveryMaster(30)) {
            holds.add(lock.acquire(key, Lease.renewed()));
        }

        await().during(Duration.ofMillis(9000))
                .atMost(Duration.ofSeconds(15))
                .until(() -> holds.stream().noneMatch(LockHandle::isLost));

        for (LockHandle hold : holds) {
            TestRedis master = cluster.masterOf(redisKey(hold.key()));
            assertThat(Long.parseLong(master.command("PTTL", redisKey(hold.key()))))
                    .as("remaining lease of %s", hold.key())
                    .isPositive();
            hold.release();
        }
    }

    /** With sharded pub/sub, the waiter hears the release on the slot's new master, whose channel it moved to. */
    @ParameterizedTest(name = "sharded pub/sub: {0}")
    @ValueSource(booleans = {true, false})
    void heldLockStaysValidWhileItsSlotMovesToAnotherMaster(boolean sharded) throws Exception {
        RedisLock lock = clients.lock(builder -> builder.watchdogLease(Duration.ofSeconds(2))
                .renewInterval(Duration.ofMillis(300))
                .shardedPubSub(sharded));
        RedisLock other = clients.lock(builder -> builder.shardedPubSub(sharded));
        String key = base + "resharded:" + sharded;
        LockHandle held = lock.acquire(key, Lease.renewed());
        CompletableFuture<Optional<LockHandle>> waiter = waitFor(other, key, Duration.ofSeconds(30));
        int slot = cluster.slotOf(redisKey(key));
        TestRedis source = cluster.masterOfSlot(slot);
        TestRedis target = cluster.nodes().stream()
                .filter(node -> node != source && !cluster.replicasOf(node).isEmpty())
                .findFirst()
                .orElseThrow();

        TestRedisCluster.SlotMigration migration = cluster.beginMigration(slot, target);
        // The fencing counters of other tests' keys stay behind, and one may hash to the same slot.
        assertThat(migration.migrateKeys())
                .as("the lock key and its fencing counter, at least")
                .isGreaterThanOrEqualTo(2);
        // Renewals and status checks now reach the key through ASK.
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() -> !held.isLost());
        assertThat(held.isHeld()).isTrue();
        migration.complete();
        cluster.awaitHealthy(Duration.ofSeconds(10));
        // And now through MOVED.
        await().during(Duration.ofSeconds(2)).atMost(Duration.ofSeconds(4)).until(() -> !held.isLost());
        assertThat(held.remainingLease()).isPositive();
        assertThat(waiter).isNotDone();

        held.release();
        LockHandle next =
                waiter.get(WOKEN_WITHIN.toMillis(), TimeUnit.MILLISECONDS).orElseThrow();
        assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
        assertThat(target.command("EXISTS", redisKey(key))).isEqualTo("1");
        next.release();
    }

    /**
     * With classic pub/sub, a release is announced with PUBLISH, which the cluster bus forwards to every other node;
     * distlock announces only releases that a waiter of another instance asked for, so an uncontended release costs
     * nothing.
     */
    @Test
    void classicAnnouncementsCostClusterBusMessagesOnePerOtherNodeAndOnlyWhenAnotherInstanceWaits() throws Exception {
        RedisLock lock = clients.lock(builder -> builder.shardedPubSub(false));
        RedisLock other = clients.lock(builder -> builder.shardedPubSub(false));

        BusMessages perRelease = busMessagesPerAnnouncedRelease(lock, other, keysOnEveryMaster(4));

        System.out.printf(
                "cluster bus, classic pub/sub: %d PUBLISH and %d SPUBLISH messages per release announced to another "
                        + "instance, %d nodes%n",
                perRelease.classic(), perRelease.sharded(), cluster.nodes().size());
        assertThat(perRelease).isEqualTo(new BusMessages(cluster.nodes().size() - 1, 0));
    }

    /**
     * With sharded pub/sub, a release is announced with SPUBLISH on its slot's channel, which the cluster bus forwards
     * only to the other nodes of the key's shard: here its one replica.
     */
    @Test
    void shardedAnnouncementsCostClusterBusMessagesOnlyWithinTheKeysShard() throws Exception {
        RedisLock lock = clients.lock();
        RedisLock other = clients.lock();

        BusMessages perRelease = busMessagesPerAnnouncedRelease(lock, other, keysOnEveryMaster(4));

        System.out.printf(
                "cluster bus, sharded pub/sub: %d PUBLISH and %d SPUBLISH messages per release announced to another "
                        + "instance, %d nodes%n",
                perRelease.classic(), perRelease.sharded(), cluster.nodes().size());
        assertThat(perRelease).isEqualTo(new BusMessages(0, 1));
    }

    /** Cluster bus messages per release that a waiter of {@code other} hears of; none for uncontended releases. */
    private BusMessages busMessagesPerAnnouncedRelease(RedisLock lock, RedisLock other, List<String> keys)
            throws Exception {
        // An instance finds out at its first release whether the cluster shards, and subscribes to the channels of a
        // key's slot when it first waits for the key, on the first announced release below.
        for (String key : keys) {
            lock.acquire(key, Lease.fixed(LONG_LEASE)).release();
            other.acquire(key, Lease.fixed(LONG_LEASE)).release();
        }
        BusMessages before = busMessagesSent();
        for (String key : keys) {
            lock.acquire(key, Lease.fixed(LONG_LEASE)).release();
        }
        assertThat(busMessagesSent())
                .as("bus messages for uncontended releases")
                .isEqualTo(before);

        for (String key : keys) {
            LockHandle held = lock.acquire(key, Lease.fixed(LONG_LEASE));
            CompletableFuture<Optional<LockHandle>> waiter = waitFor(other, key);
            TestRedis master = cluster.masterOf(redisKey(key));
            await().atMost(WAIT)
                    .until(() -> master.command("GET", redisKey(key)).contains("+"));
            held.release();
            waiter.get(WOKEN_WITHIN.toMillis(), TimeUnit.MILLISECONDS)
                    .orElseThrow()
                    .release();
        }
        BusMessages after = busMessagesSent();
        return new BusMessages(
                (after.classic() - before.classic()) / keys.size(), (after.sharded() - before.sharded()) / keys.size());
    }

    @Test
    void preparingLoadsTheScriptsOnEveryMasterAndSubscribesBeforeTheFirstAcquisition() throws Exception {
        List<TestRedis> masters = List.of(
                cluster.masterOfSlot(0),
                cluster.masterOfSlot(TestRedisCluster.SLOTS / 2),
                cluster.masterOfSlot(TestRedisCluster.SLOTS - 1));
        masters.forEach(master -> master.command("SCRIPT", "FLUSH"));
        RedisLock lock = clients.lock();
        assertThat(masters)
                .as("masters knowing the acquisition script before preparing")
                .noneMatch(master -> knowsAcquisitionScript(master));

        assertThat(lock.prepare(WAIT)).isTrue();

        assertThat(masters)
                .as("masters knowing the acquisition script once prepared")
                .allMatch(master -> knowsAcquisitionScript(master));
        assertThat(lock.checkBackend().subscription()).isEqualTo(BackendState.Subscription.SUBSCRIBED);
        assertThat(lock.heldCount()).isZero();
    }

    private static boolean knowsAcquisitionScript(TestRedis master) {
        return master.command("SCRIPT", "EXISTS", LockScripts.ACQUIRE.getSha1()).contains("1");
    }

    @Test
    void firstUseWarnsAboutEveryMasterThatMayEvictLockKeys() throws Exception {
        ListAppender<ILoggingEvent> logged = new ListAppender<>();
        Logger checkLog = (Logger) LoggerFactory.getLogger(EvictionPolicyCheck.class);
        logged.start();
        checkLog.addAppender(logged);
        TestRedis evicting = cluster.masterOfSlot(0);
        evicting.command("CONFIG", "SET", "maxmemory-policy", "allkeys-lru");
        try {
            RedisLock lock = clients.lock();
            lock.tryAcquire(base + "evict", Lease.fixed(LONG_LEASE))
                    .orElseThrow()
                    .release();

            await().atMost(WAIT).until(() -> logged.list.stream().anyMatch(event -> event.getLevel() == Level.WARN));
            assertThat(logged.list)
                    .filteredOn(event -> event.getLevel() == Level.WARN)
                    .singleElement()
                    .satisfies(event -> assertThat(event.getFormattedMessage())
                            .contains("allkeys-lru", "Nodes with this policy: 127.0.0.1:" + evicting.port()));
        } finally {
            checkLog.detachAppender(logged);
            evicting.command("CONFIG", "SET", "maxmemory-policy", "noeviction");
        }
    }

    @Test
    void pathTreesOnEveryMasterKeepTheirRulesRenewAndWakeWaitersOfOtherInstances() throws Exception {
        RedisLock holder = clients.lock(builder -> builder.watchdogLease(Duration.ofMillis(1500)));
        RedisLock other = clients.lock();
        for (String tree : keysOnEveryMaster(1)) {
            LockHandle held =
                    holder.tree(tree).tryAcquire("A/C", Lease.renewed()).orElseThrow();
            CompletableFuture<Optional<LockHandle>> ancestor = CompletableFuture.supplyAsync(() -> {
                try {
                    return other.tree(tree).tryAcquire("A", Lease.fixed(LONG_LEASE), WAIT);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return Optional.empty();
                }
            });

            assertThat(other.tree(tree).tryAcquire("A/C/D", Lease.fixed(LONG_LEASE)))
                    .isEmpty();
            other.tree(tree)
                    .tryAcquire("A/B", Lease.fixed(LONG_LEASE))
                    .orElseThrow()
                    .release();
            await().pollDelay(Duration.ofMillis(3500)).atMost(WAIT).until(() -> true);
            assertThat(held.isHeld()).as("renewed past two watchdog leases").isTrue();
            assertThat(ancestor).isNotDone();
            long released = System.nanoTime();
            held.release();
            LockHandle a = ancestor.get(WAIT.toSeconds(), TimeUnit.SECONDS).orElseThrow();
            assertThat(Duration.ofNanos(System.nanoTime() - released)).isLessThan(WOKEN_WITHIN);
            assertThat(a.fencingToken()).isGreaterThan(held.fencingToken());
            a.release();
        }
    }

    /**
     * Subscribing is done once per channel: an instance that stays idle sends Redis no further SSUBSCRIBE, not even
     * when its client re-reads the topology (every {@link RedisClients#CLUSTER_REFRESH_PERIOD}, over connections of
     * its own) and finds it unchanged.
     */
    @Test
    void idleInstancesDoNotSubscribeAgain() throws Exception {
        RedisLock lock = clients.lock();
        RedisLock other = clients.lock();
        List<String> keys = keysOnEveryMaster(2);
        // Connected first, so that no short wait below runs into a first connection on a loaded machine.
        for (String key : keys) {
            lock.acquire(key, Lease.fixed(LONG_LEASE)).release();
            other.acquire(key, Lease.fixed(LONG_LEASE)).release();
        }
        // A wait for each key subscribes the waiting instance to the channel of its slot.
        for (String key : keys) {
            LockHandle held = lock.acquire(key, Lease.fixed(LONG_LEASE));
            assertThat(other.tryAcquire(key, Lease.fixed(LONG_LEASE), Duration.ofMillis(500)))
                    .isEmpty();
            held.release();
        }
        long[] seen = {-1};
        await().pollInterval(Duration.ofMillis(500)).atMost(WAIT).until(() -> {
            long now = shardSubscriptionsSent();
            boolean unchanged = now == seen[0];
            seen[0] = now;
            return unchanged && now >= keys.size();
        });
        long settled = seen[0];

        Duration idle = RedisClients.CLUSTER_REFRESH_PERIOD.plusSeconds(1);
        await().pollDelay(idle).atMost(idle.plusSeconds(1)).until(() -> true);

        assertThat(shardSubscriptionsSent() - settled)
                .as("SSUBSCRIBE calls while idle")
                .isZero();
    }

    /** SSUBSCRIBE calls that all nodes together have served. */
    private static long shardSubscriptionsSent() {
        long calls = 0;
        for (TestRedis node : cluster.nodes()) {
            for (String line : node.command("INFO", "commandstats").split("\\r?\\n")) {
                if (line.startsWith("cmdstat_ssubscribe:")) {
                    int start = line.indexOf("calls=") + "calls=".length();
                    calls += Long.parseLong(line.substring(start, line.indexOf(',', start)));
                }
            }
        }
        return calls;
    }

    /**
     * Pub/sub messages that all nodes together have sent over the cluster bus, of classic PUBLISH and of sharded
     * SPUBLISH.
     */
    private static BusMessages busMessagesSent() {
        long classic = 0;
        long sharded = 0;
        for (TestRedis node : cluster.nodes()) {
            for (String line : node.command("CLUSTER", "INFO").split("\r?\n")) {
                if (line.startsWith("cluster_stats_messages_publish_sent:")) {
                    classic +=
                            Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                } else if (line.startsWith("cluster_stats_messages_publishshard_sent:")) {
                    sharded +=
                            Long.parseLong(line.substring(line.indexOf(':') + 1).trim());
                }
            }
        }
        return new BusMessages(classic, sharded);
    }

    private record BusMessages(long classic, long sharded) {}

    /** Keys of this test whose lock keys fall on each master, {@code perMaster} of each. */
    private List<String> keysOnEveryMaster(int perMaster) {
        List<TestRedis> masters = List.of(
                cluster.masterOfSlot(0),
                cluster.masterOfSlot(TestRedisCluster.SLOTS / 2),
                cluster.masterOfSlot(TestRedisCluster.SLOTS - 1));
        assertThat(masters).doesNotHaveDuplicates();
        List<String> keys = new ArrayList<>();
        Set<Integer> masterPorts = new HashSet<>();
        for (TestRedis master : masters) {
            int found = 0;
            for (int i = 0; found < perMaster; i++) {
                String key = base + master.port() + ":" + i;
                if (cluster.masterOf(redisKey(key)) == master) {
                    keys.add(key);
                    masterPorts.add(master.port());
                    found++;
                }
            }
        }
        assertThat(masterPorts).hasSize(3);
        return keys;
    }

    private static String redisKey(String key) {
        return "{distlock:" + key + "}";
    }

    private static CompletableFuture<Optional<LockHandle>> waitFor(RedisLock lock, String key) {
        return waitFor(lock, key, WAIT);
    }

    private static CompletableFuture<Optional<LockHandle>> waitFor(RedisLock lock, String key, Duration wait) {
        return CompletableFuture.supplyAsync(() -> {
            try {
                return lock.tryAcquire(key, Lease.fixed(LONG_LEASE), wait);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return Optional.empty();
            }
        });
    }
}
