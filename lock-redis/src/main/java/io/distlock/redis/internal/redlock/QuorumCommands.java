package io.distlock.redis.internal.redlock;

import io.distlock.LockBackendException;
import io.distlock.redis.internal.engine.Hold;
import io.distlock.redis.internal.engine.LockCommands;
import io.distlock.redis.internal.engine.SingleNodeCommands;
import io.distlock.redis.internal.scripts.OwnerTokens;
import io.distlock.redis.internal.scripts.ReleaseIds;
import io.distlock.redis.internal.scripts.ScriptCall;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The {@link LockCommands} of a Redlock group: every command goes to every node at once, without a thread per node,
 * and counts as soon as a majority of the nodes settles it.
 *
 * <ul>
 *   <li>An acquisition holds when a majority granted it and did so within the lease minus the clock-drift allowance
 *       ({@code lease * driftFactor + 2 ms}). Its fencing token is the highest counter among the granting majority;
 *       before it is handed out, every node of that majority whose counter is lower is raised to it while it still
 *       holds the key, so the next majority, which shares a node with this one, counts past it (see {@link
 *       LockScripts#RAISE_FENCE}). A failed acquisition is released on every node at once.
 *   <li>Renewals, extensions, re-entries, checks and releases hold while a majority confirms; once fewer than a
 *       majority can still confirm, the hold is lost; when the nodes that failed decide it, the command fails.
 *   <li>Every lease counts from the earliest command of the majority, minus the drift allowance, so a hold counts
 *       itself lost before a majority of the nodes could let the key go.
 *   <li>A release hands the key to a waiting thread of this instance on every node at once; the handover counts like
 *       a grant: on a majority, with its fencing token settled, within the receiver's lease minus the drift
 *       allowance.
 * </ul>
 */
public final class QuorumCommands implements LockCommands {

    private final RedlockNodes group;
    private final List<SingleNodeCommands> nodes;
    private final int quorum;

    /**
     * @param releasedHere told the lock key whenever a failed attempt was released on a node, so that this instance's
     *     waiters, which that attempt may have kept out, try again: a release by this instance is never announced to
     *     it over pub/sub
     */
    public QuorumCommands(List<SingleNodeCommands> nodes, double clockDriftFactor, Consumer<String> releasedHere) {
        this.group = new RedlockNodes(nodes, clockDriftFactor, releasedHere);
        this.nodes = group.nodes();
        this.quorum = group.quorum();
    }

    public int quorum() {
        return quorum;
    }

    public List<SingleNodeCommands> nodes() {
        return nodes;
    }

    @Override
    public boolean handsOver() {
        return true;
    }

    @Override
    public long commandTimeoutNanos() {
        return group.commandTimeoutNanos();
    }

    @Override
    public long answerTimeoutNanos() {
        return nodes.stream()
                .mapToLong(SingleNodeCommands::answerTimeoutNanos)
                .max()
                .orElseThrow();
    }

    @Override
    public boolean isConnected() {
        return nodes.stream().filter(SingleNodeCommands::isConnected).count() >= quorum;
    }

    /**
     * Sends the attempt to every node under a token of its own, not the waiter's: a failed attempt is released on a
     * node again when that node grants it late, which may be after the waiter's next attempt reached it.
     */
    @Override
    public Attempt acquire(String key, String lockKey, String waiterToken, long leaseMillis, boolean willWait) {
        String token = OwnerTokens.newToken();
        List<Attempt> attempts = new ArrayList<>(nodes.size());
        for (SingleNodeCommands node : nodes) {
            attempts.add(node.acquireNamingHolder(key, lockKey, token, leaseMillis, willWait));
        }
        GrantVote vote = new GrantVote(group, key, lockKey, token, leaseMillis, willWait, attempts);
        ScriptCall<Attempted> combined = ScriptCall.combined(key, "acquire", commandTimeoutNanos(), vote::progress);
        vote.start(combined);
        return new Attempt(this, combined, key, lockKey, token);
    }

    @Override
    public ScriptCall<Ownership> confirm(Hold hold, long leaseMillis) {
        return ownership(hold.key(), "re-enter", leaseMillis, node -> node.confirm(hold, leaseMillis));
    }

    @Override
    public ScriptCall<Ownership> extend(Hold hold, long leaseMillis) {
        return ownership(hold.key(), "extend", leaseMillis, node -> node.extend(hold, leaseMillis));
    }

    @Override
    public ScriptCall<Status> status(Hold hold) {
        List<ScriptCall<Status>> calls = send(node -> node.status(hold));
        long drift = group.driftMillis(hold.leaseMillis());
        return combine(hold.key(), "check", calls, drift, votes -> {
            Ownership found = decideOwnership(votes, Status::ownership);
            if (found != Ownership.OWNED) {
                return found == null ? null : new Status(found, 0);
            }
            // The lock is held as long as the majority's shortest remaining lease: the quorum-th longest.
            long[] remaining = votes.answers().stream()
                    .filter(status -> status != null && status.ownership() == Ownership.OWNED)
                    .mapToLong(Status::remainingMillis)
                    .sorted()
                    .toArray();
            long answered = remaining[remaining.length - quorum] - drift;
            // The first majority to answer may include a node whose extension has not run yet (sent again by text
            // after a NOSCRIPT): the majority that confirmed it holds the key at least as long as the hold counts on.
            long confirmed = TimeUnit.NANOSECONDS.toMillis(hold.expiresByNanos() - System.nanoTime());
            return new Status(Ownership.OWNED, Math.max(0, Math.max(answered, confirmed)));
        });
    }

    @Override
    public ScriptCall<Released> release(String key, String lockKey, String token, boolean othersFirst) {
        group.lateGrants().released(key, lockKey, token);
        String releaseId = ReleaseIds.newReleaseId();
        List<ScriptCall<Released>> calls = send(node -> node.release(key, lockKey, token, othersFirst, releaseId));
        return combine(key, "release", calls, 0, votes -> {
            Ownership found = decideOwnership(votes, Released::ownership);
            if (found == null) {
                return null;
            }
            return new Released(found, votes.count(Released::reservedForOthers) >= quorum, false);
        });
    }

    /**
     * Hands the key to a waiter of this instance on every node. It counts once a majority handed it over, the fencing
     * token is settled on that majority ({@link FenceSettlement}), and all that took less than the receiver's lease
     * minus the drift allowance. If the releasing hold had lost its majority, or the handover took too long, the
     * receiver's token is released on every node again, since a minority may have it.
     */
    @Override
    public ScriptCall<HandedOver> handOver(Hold hold, String receiverToken, long receiverLeaseMillis) {
        group.lateGrants().released(hold.key(), hold.lockKey(), hold.token());
        List<ScriptCall<HandedOver>> calls = send(node -> node.handOver(hold, receiverToken, receiverLeaseMillis));
        QuorumVotes<HandedOver>[] counted = newVotesHolder();
        ScriptCall<HandedOver> combined = ScriptCall.combined(
                hold.key(), "release", commandTimeoutNanos(), () -> counted[0] == null ? "" : counted[0].progress());
        QuorumVotes.<HandedOver, Ownership>count(hold.key(), "release", quorum, calls, votes -> {
                    counted[0] = votes;
                    return decideOwnership(votes, HandedOver::ownership);
                })
                .whenComplete((found, error) -> {
                    if (error != null) {
                        releaseQuietly(hold.key(), hold.lockKey(), receiverToken);
                        combined.fail(ScriptCall.unwrap(error));
                    } else if (found != Ownership.OWNED) {
                        releaseQuietly(hold.key(), hold.lockKey(), receiverToken);
                        combined.complete(System.nanoTime(), new HandedOver(found, 0, false));
                    } else {
                        settleHandover(hold, receiverToken, receiverLeaseMillis, counted[0], combined);
                    }
                });
        return combined;
    }

    private void settleHandover(
            Hold hold,
            String receiverToken,
            long receiverLeaseMillis,
            QuorumVotes<HandedOver> votes,
            ScriptCall<HandedOver> combined) {
        Predicate<HandedOver> handedOver = answer -> answer.ownership() == Ownership.OWNED;
        List<Integer> granted = votes.nodesWhere(handedOver);
        long[] fences = new long[nodes.size()];
        List<@Nullable HandedOver> answers = votes.answers();
        for (int node : granted) {
            fences[node] = answers.get(node).fencingToken();
        }
        boolean othersWait = votes.count(answer -> handedOver.test(answer) && answer.othersWait()) > 0;
        long sentNanos = votes.earliestSent(handedOver);
        long driftNanos = TimeUnit.MILLISECONDS.toNanos(group.driftMillis(receiverLeaseMillis));
        FenceSettlement.settle(group, hold.key(), hold.lockKey(), receiverToken, granted, fences)
                .whenComplete((fencingToken, error) -> {
                    boolean valid = error == null
                            && fencingToken != FenceSettlement.GONE
                            && System.nanoTime()
                                            - (sentNanos
                                                    + TimeUnit.MILLISECONDS.toNanos(receiverLeaseMillis)
                                                    - driftNanos)
                                    < 0;
                    if (valid) {
                        combined.complete(
                                sentNanos - driftNanos, new HandedOver(Ownership.OWNED, fencingToken, othersWait));
                        return;
                    }
                    releaseQuietly(hold.key(), hold.lockKey(), receiverToken);
                    combined.fail(
                            error != null
                                    ? ScriptCall.unwrap(error)
                                    : new LockBackendException(
                                            hold.key(),
                                            "Redlock could not hand lock '" + hold.key() + "' over to a waiting thread"
                                                    + " within the waiter's lease; it was released instead",
                                            null));
                });
    }

    @Override
    public ScriptCall<List<Ownership>> renew(List<Hold> holds, long leaseMillis) {
        List<ScriptCall<List<Ownership>>> calls = send(node -> node.renew(holds, leaseMillis));
        return combine(holds.get(0).key(), "renew", calls, group.driftMillis(leaseMillis), votes -> {
            List<Ownership> found = new ArrayList<>(holds.size());
            for (int i = 0; i < holds.size(); i++) {
                int hold = i;
                Ownership ownership = decideOwnership(votes, answer -> answer.get(hold));
                if (ownership == null) {
                    return null;
                }
                found.add(ownership);
            }
            return found;
        });
    }

    @Override
    public CompletableFuture<Boolean> releaseQuietly(String key, String lockKey, String token) {
        group.lateGrants().released(key, lockKey, token);
        String releaseId = ReleaseIds.newReleaseId();
        List<CompletableFuture<Boolean>> releases = nodes.stream()
                .map(node -> node.releaseQuietly(key, lockKey, token, releaseId))
                .toList();
        return CompletableFuture.allOf(releases.toArray(CompletableFuture[]::new))
                .thenApply(done -> releases.stream().anyMatch(CompletableFuture::join));
    }

    private ScriptCall<Ownership> ownership(
            String key,
            String operation,
            long leaseMillis,
            Function<SingleNodeCommands, ScriptCall<Ownership>> command) {
        return combine(
                key,
                operation,
                send(command),
                group.driftMillis(leaseMillis),
                votes -> decideOwnership(votes, found -> found));
    }

    private <A> List<ScriptCall<A>> send(Function<SingleNodeCommands, ScriptCall<A>> command) {
        return nodes.stream().map(command).toList();
    }

    /**
     * Whether a majority still owns the key, as far as the votes tell: {@link Ownership#OWNED} once a majority said so;
     * lost once too few nodes are left that could; null while undecided.
     *
     * @throws LockBackendException once only the nodes that failed could still decide it
     */
    private <A> @Nullable Ownership decideOwnership(QuorumVotes<A> votes, Function<A, Ownership> ownership) {
        int owned = votes.count(answer -> ownership.apply(answer) == Ownership.OWNED);
        if (owned >= quorum) {
            return Ownership.OWNED;
        }
        int pending = votes.pending();
        if (owned + pending >= quorum) {
            return null;
        }
        if (owned + pending + votes.failed() >= quorum) {
            throw votes.shortOfQuorum();
        }
        return votes.count(answer -> ownership.apply(answer) == Ownership.OTHER_OWNER) > 0
                ? Ownership.OTHER_OWNER
                : Ownership.GONE;
    }

    /**
     * One combined call over the nodes' calls. Its send time is the earliest of the answers that decided it, minus the
     * drift allowance, so a lease counted from it ends before the majority's.
     */
    private <A, T> ScriptCall<T> combine(
            String key,
            String operation,
            List<ScriptCall<A>> calls,
            long driftMillis,
            Function<QuorumVotes<A>, @Nullable Object> decide) {
        QuorumVotes<A>[] counted = newVotesHolder();
        ScriptCall<T> combined = ScriptCall.combined(
                key, operation, commandTimeoutNanos(), () -> counted[0] == null ? "" : counted[0].progress());
        QuorumVotes.<A, T>count(key, operation, quorum, calls, votes -> {
                    counted[0] = votes;
                    return decide.apply(votes);
                })
                .whenComplete((value, error) -> {
                    if (error != null) {
                        combined.fail(ScriptCall.unwrap(error));
                    } else {
                        long sent = counted[0].earliestSent(answer -> true);
                        combined.complete(sent - TimeUnit.MILLISECONDS.toNanos(driftMillis), value);
                    }
                });
        return combined;
    }

    @SuppressWarnings("unchecked")
    private static <A> QuorumVotes<A>[] newVotesHolder() {
        return (QuorumVotes<A>[]) new QuorumVotes<?>[1];
    }
}
