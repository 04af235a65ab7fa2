package io.distlock.redis.internal.engine;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;

/**
 * Warns once, at a lock's first use, when Redis may evict what locking relies on: under an {@code allkeys-*} policy
 * held lock keys and fencing counters, under a {@code volatile-*} policy held lock keys, which all have a TTL. An
 * evicted lock key lets a second holder in; an evicted fencing counter starts again and repeats tokens.
 *
 * <p>It asks through the lock's blocking template, on a distlock thread, where blocking costs no caller anything. On
 * Redis Cluster it asks every node, since any master may hold a lock key, and names the nodes in the warning.
 */
public final class EvictionPolicyCheck {

    private static final Logger log = LoggerFactory.getLogger(EvictionPolicyCheck.class);
    private static final String POLICY = "maxmemory_policy";
    private static final String FIX = "Run Redis with maxmemory-policy noeviction (in redis.conf, or CONFIG SET "
            + "maxmemory-policy noeviction), or give distlock a Redis of its own that does.";

    private final RedisTemplate<String, ?> template;
    private final Executor background;
    private final AtomicBoolean started = new AtomicBoolean();
    private volatile @Nullable CompletableFuture<Void> underWay;

    /**
     * @param template asks Redis
     * @param background where the check runs, off the caller's thread
     */
    public EvictionPolicyCheck(RedisTemplate<String, ?> template, Executor background) {
        this.template = template;
        this.background = background;
    }

    /** Starts the check in the background the first time it is called; the caller never waits for Redis. */
    public void runOnce() {
        if (started.compareAndSet(false, true)) {
            underWay = CompletableFuture.runAsync(this::check, background);
        }
    }

    /**
     * Waits up to {@code nanos} for a check under way to end, at the lock's shutdown: the application closes the
     * connection factory after the lock, and a cluster connection still being opened for the check while its client
     * shuts down can keep both waiting for each other forever.
     */
    public void awaitEnd(long nanos) {
        CompletableFuture<Void> check = underWay;
        if (check == null || nanos <= 0) {
            return;
        }
        try {
            check.get(nanos, TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (ExecutionException | TimeoutException e) {
            log.debug("The eviction policy check had not ended when the lock closed", e);
        }
    }

    private void check() {
        Properties memory;
        try {
            memory = template.execute((RedisCallback<Properties>)
                    connection -> connection.serverCommands().info("memory"));
        } catch (RuntimeException e) {
            log.info(
                    "Could not read Redis's maxmemory-policy ({}); distlock is safe only if Redis never evicts its "
                            + "keys. {}",
                    e.toString(),
                    FIX);
            return;
        }
        policiesByNode(memory).forEach((policy, nodes) -> {
            String warning = warningFor(policy);
            if (warning != null) {
                log.warn(nodes.isEmpty() ? warning : warning + " Nodes with this policy: " + String.join(", ", nodes));
            }
        });
    }

    /**
     * Each policy with the nodes that have it. A cluster connection answers for every node, prefixing each property
     * with the node's {@code host:port.}; a single server's properties have no prefix, and no node is named.
     */
    private static Map<String, List<String>> policiesByNode(@Nullable Properties memory) {
        Map<String, List<String>> policies = new TreeMap<>();
        if (memory == null) {
            return policies;
        }
        for (String name : memory.stringPropertyNames()) {
            if (name.equals(POLICY)) {
                policies.computeIfAbsent(memory.getProperty(name), any -> new ArrayList<>());
            } else if (name.endsWith("." + POLICY)) {
                String node = name.substring(0, name.length() - POLICY.length() - 1);
                policies.computeIfAbsent(memory.getProperty(name), any -> new ArrayList<>())
                        .add(node);
            }
        }
        policies.values().forEach(Collections::sort);
        return policies;
    }

    /** The warning for a policy, or null if the policy never evicts keys. */
    static @Nullable String warningFor(@Nullable String policy) {
        if (policy == null || policy.equals("noeviction")) {
            return null;
        }
        String what = policy.startsWith("volatile-")
                ? "keys with a TTL, which every held lock key has, so a held lock can vanish and a second holder get in"
                : "any key, so a held lock can vanish and a second holder get in, and a fencing counter can start "
                        + "again and repeat tokens";
        return "Redis may evict " + what + " when it reaches maxmemory (maxmemory-policy " + policy + "). " + FIX;
    }
}
