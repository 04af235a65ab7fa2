package io.distlock.redis.internal.redlock;

import io.distlock.redis.internal.engine.SingleNodeCommands;
import java.util.List;
import java.util.function.Consumer;

/**
 * The nodes of one Redlock group and what every vote among them shares: the majority, the clock-drift allowance, the
 * grants that arrived after their vote, and how this instance's waiters hear of a release made here.
 */
final class RedlockNodes {

    private static final long DRIFT_FLOOR_MILLIS = 2;

    private final List<SingleNodeCommands> nodes;
    private final int quorum;
    private final double clockDriftFactor;
    private final Consumer<String> releasedHere;
    private final LateGrants lateGrants = new LateGrants();
    /** The longest command timeout of the nodes: how long a combined call may take at most. */
    private final long commandTimeoutNanos;

    RedlockNodes(List<SingleNodeCommands> nodes, double clockDriftFactor, Consumer<String> releasedHere) {
        this.nodes = List.copyOf(nodes);
        this.quorum = nodes.size() / 2 + 1;
        this.clockDriftFactor = clockDriftFactor;
        this.releasedHere = releasedHere;
        this.commandTimeoutNanos = nodes.stream()
                .mapToLong(SingleNodeCommands::commandTimeoutNanos)
                .max()
                .orElseThrow();
    }

    int quorum() {
        return quorum;
    }

    List<SingleNodeCommands> nodes() {
        return nodes;
    }

    long commandTimeoutNanos() {
        return commandTimeoutNanos;
    }

    /** The nodes that had not answered won acquisitions, which a release must cover again. */
    LateGrants lateGrants() {
        return lateGrants;
    }

    /** Tells this instance's waiters that a failed attempt released the key on some node. */
    void releasedHere(String lockKey) {
        releasedHere.accept(lockKey);
    }

    /** The clock-drift allowance of a lease: how much sooner than the nodes a holder counts its lease as over. */
    long driftMillis(long leaseMillis) {
        return (long) Math.ceil(leaseMillis * clockDriftFactor) + DRIFT_FLOOR_MILLIS;
    }
}
