package io.distlock.redis;

import io.distlock.redis.LockCommands.Attempted;
import io.distlock.redis.LockCommands.Busy;
import io.distlock.redis.LockCommands.Granted;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The vote on one acquisition of a Redlock: phase one counts the grants; phase two settles the fencing token ({@link
 * FenceSettlement}); then the grant counts if it is still within its validity.
 */
final class GrantVote {

    private final QuorumCommands group;
    private final List<SingleNodeCommands> nodes;
    private final int quorum;

    private final String key;
    private final String lockKey;
    private final String token;
    private final long leaseMillis;
    private final List<LockCommands.Attempt> attempts;
    /** What the vote has heard so far, for a caller that stops waiting. */
    private volatile Supplier<String> heard = () -> "";
    /** The nodes that answered that another owner holds the key: nothing of this attempt's is there to release. */
    private volatile List<Integer> refused = List.of();
    /** The answers that decided the grant vote, in node order. */
    private volatile List<@Nullable Attempted> phaseOneAnswers = List.of();

    GrantVote(
            QuorumCommands group,
            String key,
            String lockKey,
            String token,
            long leaseMillis,
            List<LockCommands.Attempt> attempts) {
        this.group = group;
        this.nodes = group.nodes();
        this.quorum = group.quorum();
        this.key = key;
        this.lockKey = lockKey;
        this.token = token;
        this.leaseMillis = leaseMillis;
        this.attempts = attempts;
    }

    String progress() {
        return heard.get();
    }

    void start(List<ScriptCall<Attempted>> calls, ScriptCall<Attempted> combined) {
        // Once the lease minus the drift allowance has passed, no majority can count any more: decide without
        // the nodes that have not answered, rather than wait for a dead or frozen one to time out.
        long validityNanos = TimeUnit.MILLISECONDS.toNanos(leaseMillis - group.driftMillis(leaseMillis));
        QuorumVotes.<Attempted, Object>count(key, "acquire", quorum, calls, validityNanos, this::decideGrants)
                .whenComplete((outcome, error) -> {
                    if (error != null) {
                        giveUp();
                        combined.fail(ScriptCall.unwrap(error));
                    } else if (outcome instanceof Won won) {
                        settleFencing(won, combined);
                    } else {
                        giveUp();
                        combined.complete(System.nanoTime(), (Busy) outcome);
                    }
                });
    }

    private @Nullable Object decideGrants(QuorumVotes<Attempted> votes) {
        heard = votes::progress;
        refused = votes.nodesWhere(answer -> answer instanceof Busy);
        List<@Nullable Attempted> answers = votes.answers();
        phaseOneAnswers = answers;
        List<Integer> granted = votes.nodesWhere(answer -> answer instanceof Granted);
        if (granted.size() >= quorum) {
            long[] fences = new long[nodes.size()];
            for (int node : granted) {
                fences[node] = ((Granted) answers.get(node)).fencingToken();
            }
            return new Won(granted, fences, votes.earliestSent(answer -> answer instanceof Granted));
        }
        int pending = votes.pending();
        int busy = votes.count(answer -> answer instanceof Busy);
        if (votes.pastDeadline()) {
            return granted.size() + busy >= quorum
                    ? new Busy(QuorumCommands.retryAfterSplitMillis())
                    : votes.shortOfQuorum();
        }
        if (granted.size() + pending >= quorum) {
            return null;
        }
        if (granted.size() + busy >= quorum) {
            return new Busy(retryAfterMillis(votes, busy));
        }
        return granted.size() + busy + pending >= quorum ? null : votes.shortOfQuorum();
    }

    /**
     * How long until enough holders' leases end for a majority to be free; after a split vote, where no holder has
     * a majority, a random short delay.
     */
    private long retryAfterMillis(QuorumVotes<Attempted> votes, int busy) {
        int mustFree = busy - (nodes.size() - quorum);
        if (mustFree <= 0) {
            return QuorumCommands.retryAfterSplitMillis();
        }
        long[] ttls = votes.answers().stream()
                .filter(answer -> answer instanceof Busy)
                .mapToLong(answer -> {
                    long ttl = ((Busy) answer).holderTtlMillis();
                    return ttl < 0 ? Long.MAX_VALUE : ttl;
                })
                .sorted()
                .toArray();
        long ttl = ttls[mustFree - 1];
        return ttl == Long.MAX_VALUE ? -1 : ttl;
    }

    private void settleFencing(Won won, ScriptCall<Attempted> combined) {
        heard = () -> "a majority granted the lock, and the fencing counters of some of its nodes are still being"
                + " raised to the lock's token";
        FenceSettlement.settle(group, key, lockKey, token, won.granted(), won.fences())
                .whenComplete((fencingToken, error) -> {
                    if (error != null) {
                        giveUp();
                        combined.fail(ScriptCall.unwrap(error));
                    } else if (fencingToken != FenceSettlement.GONE) {
                        grantIfValid(won, fencingToken, combined);
                    } else {
                        giveUp();
                        combined.complete(System.nanoTime(), new Busy(QuorumCommands.retryAfterSplitMillis()));
                    }
                });
    }

    /** The grant counts only if the majority answered within the lease minus the drift allowance. */
    private void grantIfValid(Won won, long fencingToken, ScriptCall<Attempted> combined) {
        long validUntil =
                won.earliestSentNanos() + TimeUnit.MILLISECONDS.toNanos(leaseMillis - group.driftMillis(leaseMillis));
        if (System.nanoTime() - validUntil >= 0) {
            giveUp();
            combined.complete(System.nanoTime(), new Busy(QuorumCommands.retryAfterSplitMillis()));
            return;
        }
        group.lateGrants().expect(token, nodes, attempts);
        combined.complete(
                won.earliestSentNanos() - TimeUnit.MILLISECONDS.toNanos(group.driftMillis(leaseMillis)),
                new Granted(fencingToken));
    }

    /**
     * Releases the attempt on every node that did not refuse it, now and again on a node that grants it late. This
     * instance's waiters are told once the nodes that had granted it released it, and again after each late grant
     * is released: only then could the attempt have kept them out.
     */
    private void giveUp() {
        List<Integer> skip = refused;
        List<@Nullable Attempted> answers = phaseOneAnswers;
        String releaseId = QuorumCommands.newSplitReleaseId();
        List<CompletableFuture<Void>> grantsReleased = new ArrayList<>();
        for (int node = 0; node < attempts.size(); node++) {
            if (skip.contains(node)) {
                continue;
            }
            SingleNodeCommands commands = nodes.get(node);
            CompletableFuture<Void> released = commands.releaseQuietly(key, lockKey, token, releaseId);
            if (node < answers.size() && answers.get(node) instanceof Granted) {
                grantsReleased.add(released);
            } else {
                attempts.get(node).call().answer().thenAccept(late -> {
                    if (late instanceof Granted) {
                        commands.releaseQuietly(key, lockKey, token, QuorumCommands.newSplitReleaseId())
                                .thenRun(() -> group.releasedHere(lockKey));
                    }
                });
            }
        }
        if (!grantsReleased.isEmpty()) {
            // After a random delay, as after a split vote: the waiters of other instances, woken at once, go first.
            CompletableFuture.allOf(grantsReleased.toArray(CompletableFuture[]::new))
                    .thenRunAsync(
                            () -> group.releasedHere(lockKey),
                            CompletableFuture.delayedExecutor(
                                    QuorumCommands.retryAfterSplitMillis(), TimeUnit.MILLISECONDS));
        }
    }

    /**
     * A majority granted the attempt.
     *
     * @param granted the granting nodes, by index
     * @param fences each granting node's counter, by node index
     * @param earliestSentNanos when the earliest command to a granting node was sent
     */
    private record Won(List<Integer> granted, long[] fences, long earliestSentNanos) {}
}
