package io.distlock.redis.internal.redlock;

import io.distlock.redis.internal.engine.LockCommands.Ownership;
import io.distlock.redis.internal.scripts.ScriptCall;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Settles the fencing token of a Redlock grant or handover: the highest counter among the majority that gave the key
 * to a token, after every node of that majority whose counter is lower has raised it to that token while the token
 * still held the key there ({@link io.distlock.redis.internal.scripts.LockScripts#RAISE_FENCE}). Then a majority of the
 * nodes count past the token, and every later majority shares a node with it.
 */
public final class FenceSettlement {

    /** The settlement found too few nodes still holding the key for the token. */
    static final long GONE = -1;

    private FenceSettlement() {}

    /**
     * @param granted the nodes that gave the key to {@code token}, by index, at least a majority
     * @param fences each of those nodes' counters, by node index
     * @return the fencing token, or {@link #GONE}; fails with {@link io.distlock.LockBackendException} if nodes failed
     *     so that it cannot be told
     */
    static CompletableFuture<Long> settle(
            RedlockNodes group, String key, String lockKey, String token, List<Integer> granted, long[] fences) {
        long fencingToken = Arrays.stream(fences).max().orElseThrow();
        List<Integer> behind =
                granted.stream().filter(node -> fences[node] < fencingToken).toList();
        int needed = group.quorum() - (granted.size() - behind.size());
        if (needed <= 0) {
            return CompletableFuture.completedFuture(fencingToken);
        }
        List<ScriptCall<Ownership>> raises = behind.stream()
                .map(node -> group.nodes().get(node).raiseFence(key, lockKey, token, fencingToken))
                .toList();
        return QuorumVotes.<Ownership, Ownership>count(key, "acquire", needed, raises, votes -> {
                    int raised = votes.count(found -> found == Ownership.OWNED);
                    if (raised >= needed) {
                        return Ownership.OWNED;
                    }
                    if (raised + votes.pending() >= needed) {
                        return null;
                    }
                    return votes.failed() > 0 ? votes.shortOfQuorum() : Ownership.GONE;
                })
                .thenApply(raised -> raised == Ownership.OWNED ? fencingToken : GONE);
    }
}
