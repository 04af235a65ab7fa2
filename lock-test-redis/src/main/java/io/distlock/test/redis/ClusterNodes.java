package io.distlock.test.redis;

import java.io.IOException;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Supplier;

/**
 * Asking the nodes of a {@link TestRedisCluster}: one command to one node with a short timeout, so that a paused node
 * fails the call instead of hanging it; which nodes answer, what each believes of the cluster (who serves which slot,
 * who replicates whom), whether they agree on a healthy one, and waiting until they do.
 */
final class ClusterNodes {

    private static final Duration QUERY_TIMEOUT = Duration.ofSeconds(1);

    private final List<TestRedis> nodes;

    ClusterNodes(List<TestRedis> nodes) {
        this.nodes = List.copyOf(nodes);
    }

    /** Every node in start order, live or not. */
    List<TestRedis> all() {
        return nodes;
    }

    /** Runs a command with a short timeout, so that a paused node fails the call instead of hanging it. */
    static String ask(TestRedis node, String... args) {
        try {
            return RespConnection.callOnce(node.host(), node.port(), node.password(), QUERY_TIMEOUT, args);
        } catch (IOException e) {
            throw new IllegalStateException(
                    String.join(" ", args) + " failed on " + node.description() + ": " + e.getMessage(), e);
        }
    }

    static Optional<String> tryAsk(TestRedis node, String... args) {
        try {
            return Optional.ofNullable(ask(node, args));
        } catch (IllegalStateException e) {
            return Optional.empty();
        }
    }

    ClusterView viewOf(TestRedis node) {
        return ClusterView.parse(ask(node, "CLUSTER", "NODES"));
    }

    Optional<ClusterView> tryView(TestRedis node) {
        return tryAsk(node, "CLUSTER", "NODES").map(ClusterView::parse);
    }

    List<TestRedis> live() {
        return nodes.stream().filter(node -> tryAsk(node, "PING").isPresent()).toList();
    }

    TestRedis anyLive() {
        return live().stream()
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("No node of the cluster answers: " + nodes));
    }

    TestRedis onPort(int port) {
        return nodes.stream()
                .filter(node -> node.port() == port)
                .findFirst()
                .orElseThrow(() -> new IllegalStateException("No node of this cluster listens on port " + port));
    }

    /** The master that serves a slot, as the first live node asked believes. */
    TestRedis masterOfSlot(int slot) {
        ClusterView view = viewOf(anyLive());
        return view.masterOfSlot(slot)
                .map(entry -> onPort(entry.port()))
                .orElseThrow(() -> new IllegalStateException("No master serves slot " + slot + ": " + view));
    }

    /** The slots a master serves, as it believes itself; none for a replica. */
    Set<Integer> slotsOf(TestRedis master) {
        ClusterView.Entry myself = viewOf(master).myself();
        Set<Integer> slots = new TreeSet<>();
        for (int slot = 0; slot < TestRedisCluster.SLOTS; slot++) {
            if (myself.servesSlot(slot)) {
                slots.add(slot);
            }
        }
        return slots;
    }

    /** The nodes that replicate a master now, as the master itself reports them. */
    List<TestRedis> replicasOf(TestRedis master) {
        ClusterView view = viewOf(master);
        String masterId = view.myself().id();
        return view.entries().stream()
                .filter(entry -> entry.masterId().equals(masterId))
                .map(entry -> onPort(entry.port()))
                .toList();
    }

    /** The master a replica replicates, as the replica itself reports it. */
    TestRedis masterOf(TestRedis replica) {
        ClusterView view = viewOf(replica);
        String masterId = view.myself().masterId();
        return view.entries().stream()
                .filter(entry -> entry.id().equals(masterId))
                .findFirst()
                .map(entry -> onPort(entry.port()))
                .orElseThrow(() -> new IllegalArgumentException(replica + " is not a replica"));
    }

    /**
     * Every slot is served by a live master, every live node reports {@code cluster_state:ok}, all of them agree on who
     * serves what and who replicates whom, and every live replica is in sync with its master.
     */
    boolean isHealthy() {
        List<TestRedis> live = live();
        Set<Integer> livePorts = new LinkedHashSet<>();
        live.forEach(node -> livePorts.add(node.port()));
        String agreed = null;
        for (TestRedis node : live) {
            Optional<String> info = tryAsk(node, "CLUSTER", "INFO");
            Optional<ClusterView> view = tryView(node);
            if (info.isEmpty() || view.isEmpty() || !info.get().contains("cluster_state:ok")) {
                return false;
            }
            if (!view.get().myself().isMaster()
                    && !tryAsk(node, "INFO", "replication").orElse("").contains("master_link_status:up")) {
                return false;
            }
            String owners = view.get().topology();
            if (agreed == null) {
                agreed = owners;
            } else if (!agreed.equals(owners)) {
                return false;
            }
            for (ClusterView.Entry entry : view.get().entries()) {
                if (entry.isMaster() && !entry.slots().isEmpty() && !livePorts.contains(entry.port())) {
                    return false;
                }
            }
        }
        return agreed != null;
    }

    /**
     * Whether every live node is a master that serves slots or a replica, as the first live node sees them: a master
     * killed and started again comes back as a master without slots, and only later becomes a replica of the one that
     * took over.
     */
    boolean noIdleMaster() {
        List<TestRedis> live = live();
        if (live.isEmpty()) {
            return false;
        }
        Set<Integer> livePorts = new LinkedHashSet<>();
        live.forEach(node -> livePorts.add(node.port()));
        return tryView(live.get(0))
                .map(view -> view.entries().stream()
                        .filter(entry -> livePorts.contains(entry.port()))
                        .noneMatch(entry -> entry.isMaster() && entry.slots().isEmpty()))
                .orElse(false);
    }

    /**
     * Polls {@code condition} until it holds.
     *
     * @throws IllegalStateException if it did not hold within {@code timeout}, with every node's view
     */
    void awaitUntil(Duration timeout, String what, Supplier<Boolean> condition) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.get()) {
            if (System.nanoTime() - deadline > 0) {
                StringBuilder views = new StringBuilder();
                for (TestRedis node : nodes) {
                    views.append("\n").append(node.port()).append(": ");
                    views.append(tryAsk(node, "CLUSTER", "NODES").orElse("(no answer)"));
                }
                throw new IllegalStateException(
                        "Timed out after " + timeout.toMillis() + " ms waiting for " + what + views);
            }
            PortProbe.sleepPollInterval();
        }
    }
}
