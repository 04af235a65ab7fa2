package io.distlock.redis.internal.redlock;

import io.distlock.LockBackendException;
import io.distlock.redis.internal.scripts.ScriptCall;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import java.util.function.Predicate;
import org.jspecify.annotations.Nullable;

/**
 * The answers of the nodes of a Redlock group to one command, counted as they arrive, so that a caller learns the
 * outcome as soon as the answers so far settle it: a node that is slow or paused never delays a decision that the
 * others already made.
 *
 * @param <A> one node's answer
 */
public final class QuorumVotes<A> {

    private final String key;
    private final String operation;
    private final int quorum;
    private final List<ScriptCall<A>> calls;
    private final @Nullable Object[] answers;
    private final long[] sentNanos;
    /** Which nodes answered or failed. */
    private final boolean[] heard;

    private final CompletableFuture<Object> decided = new CompletableFuture<>();
    private int answered;
    private boolean pastDeadline;
    private int failed;
    private @Nullable Throwable firstFailure;

    private QuorumVotes(String key, String operation, int quorum, List<ScriptCall<A>> calls) {
        this.key = key;
        this.operation = operation;
        this.quorum = quorum;
        this.calls = calls;
        this.answers = new Object[calls.size()];
        this.sentNanos = new long[calls.size()];
        this.heard = new boolean[calls.size()];
    }

    /**
     * Counts the calls' answers, asking {@code decide} after each one whether they settle the outcome.
     *
     * @param decide the outcome, a {@link LockBackendException} to fail with (returned or thrown), or null to wait for
     *     more answers; when every node has answered or failed and it still returns null, the call fails
     * @return the outcome, once decided
     */
    static <A, R> CompletableFuture<R> count(
            String key,
            String operation,
            int quorum,
            List<ScriptCall<A>> calls,
            Function<QuorumVotes<A>, @Nullable Object> decide) {
        return count(key, operation, quorum, calls, -1, decide);
    }

    /**
     * Like {@link #count(String, String, int, List, Function)}, asking {@code decide} once more when {@code
     * deadlineNanos} from now have passed without a decision: from then on {@link #pastDeadline()} is true.
     *
     * @param deadlineNanos how long until the deadline; negative for none
     */
    static <A, R> CompletableFuture<R> count(
            String key,
            String operation,
            int quorum,
            List<ScriptCall<A>> calls,
            long deadlineNanos,
            Function<QuorumVotes<A>, @Nullable Object> decide) {
        QuorumVotes<A> votes = new QuorumVotes<>(key, operation, quorum, calls);
        for (int node = 0; node < calls.size(); node++) {
            int index = node;
            calls.get(node).answer().whenComplete((answer, error) -> votes.heard(index, answer, error, decide));
        }
        if (deadlineNanos >= 0) {
            CompletableFuture.delayedExecutor(deadlineNanos, TimeUnit.NANOSECONDS)
                    .execute(() -> votes.deadlinePassed(decide));
        }
        @SuppressWarnings("unchecked")
        CompletableFuture<R> outcome = votes.decided.thenApply(value -> (R) value);
        return outcome;
    }

    private void heard(
            int node,
            @Nullable A answer,
            @Nullable Throwable error,
            Function<QuorumVotes<A>, @Nullable Object> decide) {
        Object outcome;
        synchronized (this) {
            if (decided.isDone()) {
                return;
            }
            heard[node] = true;
            if (error != null) {
                failed++;
                if (firstFailure == null) {
                    firstFailure = ScriptCall.unwrap(error);
                }
            } else {
                answers[node] = answer;
                sentNanos[node] = calls.get(node).sentNanos();
                answered++;
            }
            outcome = decideNow(decide);
        }
        complete(outcome);
    }

    private void deadlinePassed(Function<QuorumVotes<A>, @Nullable Object> decide) {
        Object outcome;
        synchronized (this) {
            if (decided.isDone()) {
                return;
            }
            pastDeadline = true;
            outcome = decideNow(decide);
        }
        complete(outcome);
    }

    private @Nullable Object decideNow(Function<QuorumVotes<A>, @Nullable Object> decide) {
        Object outcome;
        try {
            outcome = decide.apply(this);
        } catch (LockBackendException failure) {
            outcome = failure;
        } catch (RuntimeException e) {
            // A decision that cannot be made must still end the call rather than leave its caller waiting.
            outcome = new LockBackendException(key, "Redlock could not " + operation + " lock '" + key + "'", e);
        }
        if (outcome == null && pending() == 0) {
            outcome = shortOfQuorum();
        }
        return outcome;
    }

    private void complete(@Nullable Object outcome) {
        if (outcome instanceof LockBackendException failure) {
            decided.completeExceptionally(failure);
        } else if (outcome != null) {
            decided.complete(outcome);
        }
    }

    /** Whether the deadline given to {@code count} has passed without a decision. */
    synchronized boolean pastDeadline() {
        return pastDeadline;
    }

    synchronized int pending() {
        return calls.size() - answered - failed;
    }

    synchronized int failed() {
        return failed;
    }

    /** Whether every one of these nodes (by index) has answered or failed. */
    synchronized boolean heardFrom(List<Integer> nodes) {
        for (int node : nodes) {
            if (!heard[node]) {
                return false;
            }
        }
        return true;
    }

    /** The nodes' answers so far, in node order; null for a node that failed or has not answered. */
    synchronized List<@Nullable A> answers() {
        @SuppressWarnings("unchecked")
        List<@Nullable A> list = (List<@Nullable A>) (List<?>) Arrays.asList(answers.clone());
        return list;
    }

    /** How many nodes answered so that {@code counts} holds. */
    synchronized int count(Predicate<A> counts) {
        int count = 0;
        for (Object answer : answers) {
            @SuppressWarnings("unchecked")
            A typed = (A) answer;
            if (answer != null && counts.test(typed)) {
                count++;
            }
        }
        return count;
    }

    /** When the earliest command whose answer {@code counts} was sent: a lease it confirmed started no earlier. */
    synchronized long earliestSent(Predicate<A> counts) {
        long earliest = 0;
        boolean any = false;
        for (int node = 0; node < answers.length; node++) {
            @SuppressWarnings("unchecked")
            A typed = (A) answers[node];
            if (typed != null && counts.test(typed) && (!any || sentNanos[node] - earliest < 0)) {
                earliest = sentNanos[node];
                any = true;
            }
        }
        return earliest;
    }

    /** The nodes that answered so that {@code counts} holds, by index. */
    synchronized List<Integer> nodesWhere(Predicate<A> counts) {
        List<Integer> nodes = new ArrayList<>();
        for (int node = 0; node < answers.length; node++) {
            @SuppressWarnings("unchecked")
            A typed = (A) answers[node];
            if (typed != null && counts.test(typed)) {
                nodes.add(node);
            }
        }
        return nodes;
    }

    /** The failure of a command that too few nodes answered to decide. */
    synchronized LockBackendException shortOfQuorum() {
        return new LockBackendException(
                key,
                "Redlock could not " + operation + " lock '" + key + "': " + progress()
                        + (firstFailure == null ? "" : "; first failure: " + firstFailure),
                firstFailure);
    }

    /** What has been heard so far, for a caller that stops waiting. */
    synchronized String progress() {
        return answered + " of " + calls.size() + " Redis nodes answered (" + failed + " failed, " + pending()
                + " still silent), and a majority of " + quorum + " is needed";
    }
}
