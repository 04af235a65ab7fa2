package io.distlock.redis.internal.redlock;

import io.distlock.redis.internal.engine.LockCommands;
import io.distlock.redis.internal.engine.LockCommands.Attempted;
import io.distlock.redis.internal.engine.LockCommands.Busy;
import io.distlock.redis.internal.engine.LockCommands.Granted;
import io.distlock.redis.internal.engine.SingleNodeCommands;
import io.distlock.redis.internal.scripts.OwnerTokens;
import io.distlock.redis.internal.scripts.ReleaseIds;
import io.distlock.redis.internal.scripts.ScriptCall;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import org.jspecify.annotations.Nullable;

/**
 * The vote on one acquisition of a Redlock: phase one counts the grants, and settles a split vote among contenders
 * within the attempt; phase two settles the fencing token ({@link FenceSettlement}); then the grant counts if it is
 * still within its validity.
 *
 * <h2>Split votes</h2>
 * Contenders that try a free key at the same moment can split the nodes among them so that none has a majority. Left
 * alone, every one of them releases and loses, and callers that try once (a {@code @Scheduled} job guarded with no
 * wait) all go without the lock. So each attempt has a rank, the SHA-1 of its owner token ({@link
 * OwnerTokens#digest}), and every node that refuses it names its holder by that digest ({@link
 * LockScripts#ACQUIRE_NAMING_HOLDER}), which gives away nothing of the token. As the answers come in:
 *
 * <ol>
 *   <li>A majority of grants wins, whatever the ranks.
 *   <li>An attempt that no refusal outranks, whose grants plus the nodes that <em>lower</em>-ranked contenders hold
 *       make a majority, and that sees no other token on a majority, <em>keeps</em> its grants and asks those nodes
 *       again: after 1 ms, then 2, 4, 8 and every 16 ms, each time once the nodes asked last have answered, since
 *       those contenders yield. It wins once a majority granted it.
 *   <li>An attempt that could still win with the nodes yet to answer waits for them, outranked or not.
 *   <li>Otherwise it loses: it releases its grants on every node ({@link #giveUp}). An attempt refused for a
 *       contender ranked <em>above</em> it so <em>yields</em> once it has heard from a majority.
 * </ol>
 *
 * <p><b>Mutual exclusion.</b> Each node holds the key for at most one token at a time ({@code SET NX}). An attempt
 * counts only when a majority granted it, and its validity runs from the moment the first of its granting commands
 * was sent, however many rounds it took, minus the lease's drift allowance; every granting node keeps the key at least
 * that long. Two tokens valid at once would need two majorities holding the key at once, which share a node. Ranks
 * never make a node give the key to anyone: they only decide which attempt releases and which asks again, so they
 * cannot let two callers hold the key, and asking again is only another {@code SET NX}.
 *
 * <p><b>Exactly one winner.</b> Rule 3 means a token never holds a majority without its own vote winning: an attempt
 * gives up only when the nodes it waits for could no longer make it win. So another token seen on a majority of the
 * nodes, even by answers of different moments, has the lock (rule 2 loses to it at once). Among contenders on a free
 * key, the highest-ranked one is outranked by none and, with a majority of the nodes up, can always count on a
 * majority; every contender holding a node it needs was refused by it there, or had that node before it and released
 * it, so it yields. So the highest-ranked contender, or one that won a majority outright, gets the key, and every
 * other caller loses.
 *
 * <p><b>Bounded.</b> An attempt that keeps its grants asks again only within {@link #SETTLE_BUDGET_MILLIS} (at most
 * half the command timeout, and never past the lease's validity); then it counts once more without asking, for the
 * nodes still to answer, and loses unless they make it win. A holder that never yields uses up that budget: a client
 * that died holding a minority of the nodes, or an owner whose majority includes a node that does not answer now. The
 * caller then learns "not acquired" that much later, as without settling it would have learnt it at once.
 */
public final class GrantVote {

    /** How long an attempt goes on asking the nodes that lower-ranked contenders hold, at most. */
    public static final long SETTLE_BUDGET_MILLIS = 500;

    /** The first time an attempt asks those nodes again, this long after the vote that kept its grants. */
    private static final long SETTLE_RETRY_FIRST_MILLIS = 1;

    /** Each next time comes twice as late as the one before, but no later than this. */
    private static final long SETTLE_RETRY_MAX_MILLIS = 16;

    private final RedlockNodes group;
    private final List<SingleNodeCommands> nodes;
    private final int quorum;

    private final String key;
    private final String lockKey;
    private final String token;
    private final long leaseMillis;
    private final boolean willWait;
    /** This attempt's rank: the digest by which the nodes name its token to the other contenders. */
    private final String rank;
    /** Past this, by the monotonic clock, no majority can count any more. */
    private final long validityEndNanos;
    /** Past this, an attempt that keeps its grants stops asking again. */
    private final long settleEndNanos;
    /** The latest attempt on each node, in node order; a node is asked again only after it refused. */
    private volatile List<LockCommands.Attempt> attempts;
    /** How many times the attempt asked again; touched only between rounds, which never overlap. */
    private int retries;
    /**
     * The nodes asked again in this round, by index: the round asks again only once they all answered, so that it
     * never decides on their earlier answers; empty in the first round, which may ask again without a silent node.
     */
    private volatile List<Integer> askedAgain = List.of();
    /** Set once the budget for asking again is spent: the last round only waits for nodes that could still grant. */
    private volatile boolean budgetSpent;
    /** What the vote has heard so far, for a caller that stops waiting. */
    private volatile Supplier<String> heard = () -> "";
    /** The nodes that answered that another owner holds the key: nothing of this attempt's is there to release. */
    private volatile List<Integer> refused = List.of();
    /** The answers that decided the latest round of the vote, in node order. */
    private volatile List<@Nullable Attempted> latestAnswers = List.of();

    /**
     * @param attempts the first attempt on each node, in node order, all under {@code token}
     * @param willWait whether the caller will wait, so that attempts sent again mark the key as the first ones did
     */
    GrantVote(
            RedlockNodes group,
            String key,
            String lockKey,
            String token,
            long leaseMillis,
            boolean willWait,
            List<LockCommands.Attempt> attempts) {
        this.group = group;
        this.nodes = group.nodes();
        this.quorum = group.quorum();
        this.key = key;
        this.lockKey = lockKey;
        this.token = token;
        this.leaseMillis = leaseMillis;
        this.willWait = willWait;
        this.rank = OwnerTokens.digest(token);
        this.attempts = List.copyOf(attempts);
        long now = System.nanoTime();
        // Once the lease minus the drift allowance has passed, no majority can count any more: decide without
        // the nodes that have not answered, rather than wait for a dead or frozen one to time out.
        this.validityEndNanos = now + TimeUnit.MILLISECONDS.toNanos(leaseMillis - group.driftMillis(leaseMillis));
        this.settleEndNanos =
                now + Math.min(TimeUnit.MILLISECONDS.toNanos(SETTLE_BUDGET_MILLIS), group.commandTimeoutNanos() / 2);
    }

    String progress() {
        return heard.get();
    }

    /** Counts the answers to the first attempts, and to those sent again, until the vote is decided. */
    void start(ScriptCall<Attempted> combined) {
        count(combined);
    }

    private void count(ScriptCall<Attempted> combined) {
        List<ScriptCall<Attempted>> calls =
                attempts.stream().map(LockCommands.Attempt::call).toList();
        long untilInvalid = Math.max(0, validityEndNanos - System.nanoTime());
        QuorumVotes.<Attempted, Object>count(key, "acquire", quorum, calls, untilInvalid, this::decideGrants)
                .whenComplete((outcome, error) -> {
                    if (error != null) {
                        giveUp();
                        combined.fail(ScriptCall.unwrap(error));
                    } else if (outcome instanceof Won won) {
                        settleFencing(won, combined);
                    } else if (outcome instanceof AskAgain again) {
                        askAgainLater(again, combined);
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
        latestAnswers = answers;
        List<Integer> granted = votes.nodesWhere(answer -> answer instanceof Granted);
        if (granted.size() >= quorum) {
            long[] fences = new long[nodes.size()];
            for (int node : granted) {
                fences[node] = ((Granted) answers.get(node)).fencingToken();
            }
            return new Won(granted, fences, votes.earliestSent(answer -> answer instanceof Granted));
        }
        int pending = votes.pending();
        int busy = refused.size();
        if (votes.pastDeadline()) {
            return granted.size() + busy >= quorum
                    ? new Busy(ReleaseIds.retryAfterSplitMillis())
                    : votes.shortOfQuorum();
        }
        boolean outranked = votes.count(answer -> answer instanceof Busy refusal && ranksAbove(refusal)) > 0;
        if (!outranked && !budgetSpent && !oneOwnerHoldsAMajority(answers)) {
            // Nodes that contenders below this attempt hold count as its own to come, since those contenders yield.
            List<Integer> below = votes.nodesWhere(answer -> answer instanceof Busy refusal && ranksBelow(refusal));
            if (granted.size() + below.size() >= quorum && !below.isEmpty()) {
                return votes.heardFrom(askedAgain) ? new AskAgain(below) : null;
            }
            if (granted.size() + below.size() + pending >= quorum) {
                return null;
            }
        }
        // An attempt that can still win with the nodes yet to answer waits for them, outranked or not: so a token
        // never holds a majority without winning, and a token that others see on a majority of the nodes has the lock.
        if (granted.size() + pending >= quorum) {
            return null;
        }
        if (granted.size() + busy >= quorum) {
            return new Busy(retryAfterMillis(votes, busy));
        }
        return granted.size() + busy + pending >= quorum ? null : votes.shortOfQuorum();
    }

    /**
     * Whether the nodes that answered name one other token as the holder of a majority of them, even at different
     * moments: a token only ever gets that many grants if its own vote counts them and wins, since no attempt gives up
     * while the nodes it still waits for could make it win.
     */
    private boolean oneOwnerHoldsAMajority(List<@Nullable Attempted> answers) {
        Map<String, Integer> held = new HashMap<>();
        for (Attempted answer : answers) {
            if (answer instanceof Busy refusal && refusal.holderDigest() != null) {
                if (held.merge(refusal.holderDigest(), 1, Integer::sum) >= quorum) {
                    return true;
                }
            }
        }
        return false;
    }

    /** Whether a node refused this attempt for a contender ranked below it, which yields when it sees this one. */
    private boolean ranksBelow(Busy refusal) {
        String holder = refusal.holderDigest();
        return holder != null && holder.compareTo(rank) < 0;
    }

    /** Whether a node refused this attempt for a contender ranked above it, to which this one yields. */
    private boolean ranksAbove(Busy refusal) {
        String holder = refusal.holderDigest();
        return holder != null && holder.compareTo(rank) > 0;
    }

    /**
     * Asks the nodes that lower-ranked contenders hold again, after a delay that doubles each time, while the budget
     * and the lease's validity last; after that, gives up like any split vote.
     */
    private void askAgainLater(AskAgain again, ScriptCall<Attempted> combined) {
        long delayMillis = Math.min(SETTLE_RETRY_FIRST_MILLIS << Math.min(retries, 16), SETTLE_RETRY_MAX_MILLIS);
        retries++;
        long askAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(delayMillis);
        if (askAt - settleEndNanos >= 0 || askAt - validityEndNanos >= 0) {
            // Counted once more without asking: a node still silent from an earlier round may yet make it win.
            budgetSpent = true;
            count(combined);
            return;
        }
        CompletableFuture.delayedExecutor(delayMillis, TimeUnit.MILLISECONDS).execute(() -> {
            List<LockCommands.Attempt> next = new ArrayList<>(attempts);
            for (int node : again.nodes()) {
                next.set(node, nodes.get(node).acquireNamingHolder(key, lockKey, token, leaseMillis, willWait));
            }
            attempts = List.copyOf(next);
            askedAgain = again.nodes();
            count(combined);
        });
    }

    /**
     * How long until enough holders' leases end for a majority to be free; after a split vote, where no holder has
     * a majority, a random short delay.
     */
    private long retryAfterMillis(QuorumVotes<Attempted> votes, int busy) {
        int mustFree = busy - (nodes.size() - quorum);
        if (mustFree <= 0) {
            return ReleaseIds.retryAfterSplitMillis();
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
                        combined.complete(System.nanoTime(), new Busy(ReleaseIds.retryAfterSplitMillis()));
                    }
                });
    }

    /** The grant counts only if the majority answered within the lease minus the drift allowance. */
    private void grantIfValid(Won won, long fencingToken, ScriptCall<Attempted> combined) {
        long validUntil =
                won.earliestSentNanos() + TimeUnit.MILLISECONDS.toNanos(leaseMillis - group.driftMillis(leaseMillis));
        if (System.nanoTime() - validUntil >= 0) {
            giveUp();
            combined.complete(System.nanoTime(), new Busy(ReleaseIds.retryAfterSplitMillis()));
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
        List<@Nullable Attempted> answers = latestAnswers;
        List<LockCommands.Attempt> latest = attempts;
        String releaseId = ReleaseIds.newSplitReleaseId();
        List<CompletableFuture<Boolean>> grantsReleased = new ArrayList<>();
        for (int node = 0; node < latest.size(); node++) {
            if (skip.contains(node)) {
                continue;
            }
            SingleNodeCommands commands = nodes.get(node);
            CompletableFuture<Boolean> released = commands.releaseQuietly(key, lockKey, token, releaseId);
            if (node < answers.size() && answers.get(node) instanceof Granted) {
                grantsReleased.add(released);
            } else {
                latest.get(node).call().answer().thenAccept(late -> {
                    if (late instanceof Granted) {
                        commands.releaseQuietly(key, lockKey, token, ReleaseIds.newSplitReleaseId())
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
                                    ReleaseIds.retryAfterSplitMillis(), TimeUnit.MILLISECONDS));
        }
    }

    /**
     * The attempt keeps its grants and asks these nodes again, which contenders ranked below it hold.
     *
     * @param nodes by index
     */
    private record AskAgain(List<Integer> nodes) {}

    /**
     * A majority granted the attempt.
     *
     * @param granted the granting nodes, by index
     * @param fences each granting node's counter, by node index
     * @param earliestSentNanos when the earliest command to a granting node was sent
     */
    private record Won(List<Integer> granted, long[] fences, long earliestSentNanos) {}
}
