package io.distlock.redis.internal.pubsub;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.cluster.RedisClusterClient;
import io.lettuce.core.cluster.SlotHash;
import io.lettuce.core.cluster.event.ClusterTopologyChangedEvent;
import io.lettuce.core.cluster.models.partitions.Partitions;
import io.lettuce.core.cluster.models.partitions.RedisClusterNode;
import io.lettuce.core.cluster.pubsub.RedisClusterPubSubAdapter;
import io.lettuce.core.cluster.pubsub.StatefulRedisClusterPubSubConnection;
import io.lettuce.core.codec.StringCodec;
import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArraySet;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.Disposable;

/**
 * The sharded pub/sub half of a {@link ReleaseConnection} on a Redis Cluster: each sharded release channel
 * subscribed with {@code SSUBSCRIBE} on the master that serves its slot, and moved when the slot's master changes.
 *
 * <p>All work runs on one distlock thread, in passes that compare the channels wanted with where they are subscribed,
 * and subscribe only the channels whose slot's master is not the one they are subscribed on. A pass runs when a channel
 * is first wanted, when the server unsubscribes a channel (its slot moved away), when the client sees the cluster's
 * topology change (a failover, say), and every second, which sends Redis nothing unless a slot's master changed. A
 * connection to a node that reconnects subscribes again by itself (Lettuce). Each channel (re)subscribed tells its
 * listeners, whose waiters then check Redis again, as releases announced meanwhile were missed. A pass that fails is
 * tried again a second later, after the client re-reads the topology.
 *
 * <p>Redis before 7.0 answers {@code SSUBSCRIBE} as an unknown command; from then on nothing more is tried, and {@link
 * #works()} stays false, so that releases keep being announced the classic way.
 */
public final class ShardedSubscriptions implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ShardedSubscriptions.class);

    private static final long RETRY_MILLIS = 1000;

    /** How often a pass compares the client's view of the slots with the subscriptions. */
    private static final long CHECK_MILLIS = 1000;

    /**
     * A channel nobody publishes on, subscribed when a lock first asks whether to announce sharded: an instance that
     * only releases (and never waits, so never subscribes) learns so whether the cluster serves sharded pub/sub.
     */
    private static final String PROBE_CHANNEL = "distlock:sharded-pub-sub-probe";

    private static final ReleaseListener NOBODY = new ReleaseListener() {
        @Override
        public void released(String message) {}

        @Override
        public void subscribed() {}
    };

    private final RedisClusterClient client;
    private final long timeoutMillis;
    private final Map<String, Set<ReleaseListener>> listeners = new ConcurrentHashMap<>();
    /** The node each subscribed channel is subscribed on, by node id. */
    private final Map<String, String> nodeOfChannel = new ConcurrentHashMap<>();

    private final AtomicBoolean passPending = new AtomicBoolean();
    /** Before this, set by a failed pass, no pass runs, however often a channel is asked for. */
    private volatile long retryAtNanos = System.nanoTime();

    private final ScheduledExecutorService worker = Executors.newSingleThreadScheduledExecutor(task -> {
        Thread thread = new Thread(task, "distlock-sharded-subscriber");
        thread.setDaemon(true);
        return thread;
    });

    /** Only the worker changes it, apart from {@link #close}. */
    private volatile @Nullable StatefulRedisClusterPubSubConnection<String, String> connection;

    private volatile @Nullable Disposable clientEvents;
    private final AtomicBoolean probed = new AtomicBoolean();
    private volatile boolean works;
    /** Whether the last pass failed, so that an outage is logged as a warning once. */
    private volatile boolean failing;

    private volatile boolean unsupported;
    private volatile boolean closed;

    /**
     * @param client the cluster client of the application's connection factory
     * @param timeoutMillis how long a subscription may take before the pass counts it as failed
     */
    ShardedSubscriptions(RedisClusterClient client, long timeoutMillis) {
        this.client = client;
        this.timeoutMillis = timeoutMillis;
    }

    /**
     * Whether the cluster took a subscription: it serves sharded pub/sub, so announcements may use it. Until one was
     * taken, the first call subscribes in the background to a probe channel, so that an answer comes.
     */
    boolean works() {
        if (!works && probed.compareAndSet(false, true)) {
            ensureSubscribed(PROBE_CHANNEL, NOBODY);
        }
        return works;
    }

    /** Makes sure, in the background, that the listener hears the channel. Never blocks. */
    void ensureSubscribed(String channel, ReleaseListener listener) {
        listeners.computeIfAbsent(channel, any -> new CopyOnWriteArraySet<>()).add(listener);
        if (!nodeOfChannel.containsKey(channel)) {
            requestPass(0);
        }
    }

    /** Stops the listener hearing any channel. */
    void unsubscribe(ReleaseListener listener) {
        listeners.values().forEach(registered -> registered.remove(listener));
    }

    /** Asks for a pass in {@code delayMillis}, or once the back-off after a failed pass is over, if that is later. */
    private void requestPass(long delayMillis) {
        if (closed || unsupported || !passPending.compareAndSet(false, true)) {
            return;
        }
        long backOffMillis = TimeUnit.NANOSECONDS.toMillis(retryAtNanos - System.nanoTime());
        try {
            worker.schedule(this::pass, Math.max(delayMillis, backOffMillis), TimeUnit.MILLISECONDS);
        } catch (RuntimeException rejectedAtClose) {
            passPending.set(false);
        }
    }

    private void pass() {
        passPending.set(false);
        if (closed || unsupported) {
            return;
        }
        try {
            StatefulRedisClusterPubSubConnection<String, String> pubsub = connected();
            Partitions partitions = client.getPartitions();
            Map<String, String> subscribing = new HashMap<>();
            Map<String, RedisFuture<Void>> sent = new HashMap<>();
            boolean incomplete = false;
            for (String channel : listeners.keySet()) {
                RedisClusterNode owner = partitions.getMasterBySlot(SlotHash.getSlot(channel));
                if (owner == null) {
                    incomplete = true;
                    continue;
                }
                String nodeId = owner.getNodeId();
                String current = nodeOfChannel.get(channel);
                if (nodeId.equals(current)) {
                    continue;
                }
                if (current != null) {
                    leave(pubsub, current, channel);
                }
                subscribing.put(channel, nodeId);
                sent.put(channel, pubsub.getConnection(nodeId).async().ssubscribe(channel));
            }
            for (Map.Entry<String, RedisFuture<Void>> subscription : sent.entrySet()) {
                String channel = subscription.getKey();
                if (await(subscription.getValue(), channel)) {
                    nodeOfChannel.put(channel, subscribing.get(channel));
                    works = true;
                    failing = false;
                } else if (unsupported) {
                    return;
                } else {
                    incomplete = true;
                }
            }
            if (incomplete) {
                retry();
            } else {
                retryAtNanos = System.nanoTime();
            }
        } catch (RuntimeException e) {
            if (failing) {
                log.debug("Subscribing to distlock's sharded release channels failed again: {}", e.toString());
            } else {
                failing = true;
                log.warn(
                        "Could not subscribe to distlock's sharded release channels; waiters of other instances' "
                                + "releases rely on the holder's lease until it works (retried every second): {}",
                        e.toString());
            }
            retry();
        }
    }

    /** Whether the subscription worked; marks sharded pub/sub unsupported if Redis does not know the command. */
    private boolean await(RedisFuture<Void> subscription, String channel) {
        try {
            subscription.get(timeoutMillis, TimeUnit.MILLISECONDS);
            return true;
        } catch (ExecutionException e) {
            String message = String.valueOf(e.getCause().getMessage());
            if (message.toLowerCase(Locale.ROOT).contains("unknown command")) {
                unsupported = true;
                log.info(
                        "Redis does not serve sharded pub/sub (SSUBSCRIBE, Redis 7.0 and later): distlock announces "
                                + "releases with classic PUBLISH ({})",
                        message);
            } else {
                log.debug("Subscribing to {} failed: {}", channel, message);
            }
            return false;
        } catch (TimeoutException e) {
            log.debug("Subscribing to {} took over {} ms", channel, timeoutMillis);
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Leaves the channel on a node that no longer serves its slot, if that node is still reachable. */
    private static void leave(
            StatefulRedisClusterPubSubConnection<String, String> pubsub, String nodeId, String channel) {
        try {
            pubsub.getConnection(nodeId).async().sunsubscribe(channel);
        } catch (RuntimeException gone) {
            log.debug("Node {} is gone; its subscription to {} went with it", nodeId, channel);
        }
    }

    private void retry() {
        retryAtNanos = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(RETRY_MILLIS);
        client.refreshPartitionsAsync();
        requestPass(RETRY_MILLIS);
    }

    private StatefulRedisClusterPubSubConnection<String, String> connected() {
        StatefulRedisClusterPubSubConnection<String, String> current = connection;
        if (current != null && current.isOpen()) {
            return current;
        }
        nodeOfChannel.clear();
        StatefulRedisClusterPubSubConnection<String, String> opened = client.connectPubSub(StringCodec.UTF8);
        opened.setNodeMessagePropagation(true);
        opened.addListener(new Dispatcher());
        connection = opened;
        if (clientEvents == null) {
            clientEvents = client.getResources().eventBus().get().subscribe(event -> {
                if (event instanceof ClusterTopologyChangedEvent) {
                    requestPass(0);
                }
            });
            // The client may announce a topology change before its own view of the slots has it; a pass that read the
            // old view must not leave a channel on a master that no longer serves its slot.
            worker.scheduleWithFixedDelay(() -> requestPass(0), CHECK_MILLIS, CHECK_MILLIS, TimeUnit.MILLISECONDS);
        }
        if (closed) {
            opened.closeAsync();
        }
        return opened;
    }

    /** Stops every subscription; never waits for a pass under way. */
    @Override
    public void close() {
        closed = true;
        listeners.clear();
        worker.shutdownNow();
        Disposable events = clientEvents;
        if (events != null) {
            events.dispose();
        }
        StatefulRedisClusterPubSubConnection<String, String> current = connection;
        if (current != null) {
            current.closeAsync();
        }
    }

    private void forEachListener(String channel, Consumer<ReleaseListener> action) {
        Set<ReleaseListener> registered = listeners.get(channel);
        if (registered != null) {
            registered.forEach(action);
        }
    }

    /** Handles pushes on the client's I/O thread: it only wakes waiting threads or asks for a pass. */
    private final class Dispatcher extends RedisClusterPubSubAdapter<String, String> {

        @Override
        public void smessage(RedisClusterNode node, String channel, String message) {
            forEachListener(channel, listener -> listener.released(message));
        }

        @Override
        public void ssubscribed(RedisClusterNode node, String channel, long count) {
            forEachListener(channel, ReleaseListener::subscribed);
        }

        @Override
        public void sunsubscribed(RedisClusterNode node, String channel, long count) {
            // A slot moved away, or this instance left a node that no longer serves it, in which case the channel is
            // already subscribed elsewhere.
            if (node == null || nodeOfChannel.remove(channel, node.getNodeId())) {
                requestPass(0);
            }
        }
    }
}
