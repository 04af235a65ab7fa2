package io.distlock.redis.internal.engine;

import io.distlock.redis.internal.engine.LockCommands.Ownership;
import io.distlock.redis.internal.scripts.ScriptCall;
import io.distlock.spi.HoldSettings;
import io.lettuce.core.cluster.SlotHash;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps auto-renewed leases alive and notices lost holds, on one small scheduler thread per lock instance.
 *
 * <p>Every renewal interval it extends all tracked leases, as many keys per script as share a cluster slot, comparing
 * owner tokens first, so a renewal can never extend a key that was released or taken over. A hold is marked lost when
 * a renewal finds the key gone or owned by another, or when no renewal was confirmed for a whole lease. A hold held for
 * the maximum hold, where one is set, is no longer renewed.
 */
public final class LeaseRenewer implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(LeaseRenewer.class);
    private static final int MAX_KEYS_PER_SCRIPT = 100;

    private final LockCommands commands;
    private final boolean clustered;
    private final HoldSettings settings;

    private final Duration interval;
    private final ScheduledThreadPoolExecutor scheduler;
    private final ThreadPoolExecutor callbacks;
    private final long roundTimeoutNanos;
    private final Set<Hold> renewed = ConcurrentHashMap.newKeySet();
    /** Holds whose renewal was sent and is neither answered nor timed out; the next round skips them. */
    private final Set<Hold> inFlight = ConcurrentHashMap.newKeySet();
    /** Holds whose last renewal, in a batch with others, failed or timed out; each is renewed alone until it works. */
    private final Set<Hold> suspects = ConcurrentHashMap.newKeySet();

    private final ObserverCalls observer;
    private final ScheduledFuture<?> rounds;

    public LeaseRenewer(LockCommands commands, boolean clustered, HoldSettings settings, ObserverCalls observer) {
        this.settings = settings;
        this.observer = observer;
        this.commands = commands;
        this.clustered = clustered;
        this.interval = settings.renewInterval();
        // A round must be over before the next one starts, or a reply that never comes would make that one skip its
        // holds.
        this.roundTimeoutNanos = Math.min(commands.commandTimeoutNanos(), interval.toNanos() / 4 * 3);
        this.scheduler = new ScheduledThreadPoolExecutor(1, task -> {
            Thread thread = new Thread(task, "distlock-lease-renewer");
            thread.setDaemon(true);
            return thread;
        });
        scheduler.setRemoveOnCancelPolicy(true);
        // Never shut down: callbacks of holds reported lost by close() must still run. Its thread ends when idle.
        this.callbacks = new ThreadPoolExecutor(0, 1, 5, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), task -> {
            Thread thread = new Thread(task, "distlock-lost-callbacks");
            thread.setDaemon(true);
            return thread;
        });
        this.rounds = scheduler.scheduleWithFixedDelay(
                this::renewAll, interval.toNanos(), interval.toNanos(), TimeUnit.NANOSECONDS);
    }

    /** Whether renewal rounds still run: a round that threw would have ended them, as would {@link #close()}. */
    public boolean isRunning() {
        return !scheduler.isShutdown() && !rounds.isDone();
    }

    public long leaseMillis() {
        return settings.watchdogLease().toMillis();
    }

    public Duration interval() {
        return interval;
    }

    /**
     * Runs lost-lock callbacks off the caller's thread and off the renewal thread, so a slow callback never delays a
     * renewal, logging what they throw. It keeps working after {@link #close()}.
     */
    Executor callbackExecutor() {
        return task -> callbacks.execute(() -> {
            try {
                task.run();
            } catch (RuntimeException e) {
                log.error("A distlock lost-lock callback failed", e);
            }
        });
    }

    void track(Hold hold) {
        renewed.add(hold);
    }

    void untrack(Hold hold) {
        forget(hold);
    }

    /** Makes sure the hold's callbacks run when its lease runs out, not only when someone asks. */
    void watchExpiry(Hold hold) {
        long delay = hold.expiresByNanos() - System.nanoTime();
        try {
            scheduler.schedule(
                    () -> {
                        if (!hold.hasEnded()) {
                            watchExpiry(hold);
                        }
                    },
                    Math.max(0, delay),
                    TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            // close() already reported every hold it did not see released as lost.
        }
    }

    private void renewAll() {
        List<Hold> due = new ArrayList<>(renewed.size());
        for (Hold hold : renewed) {
            if (hold.hasEnded()) {
                forget(hold);
            } else if (pastMaxHold(hold)) {
                // Its lease now runs out in Redis as a dead holder's would, and the hold is reported lost then.
                hold.stopRenewals();
                forget(hold);
                watchExpiry(hold);
            } else if (hold.isRenewed() && !inFlight.contains(hold)) {
                due.add(hold);
            }
        }
        if (due.isEmpty()) {
            return;
        }
        for (List<Hold> batch : batches(due)) {
            inFlight.addAll(batch);
            renew(batch);
        }
        long earliestExpiry = Long.MAX_VALUE;
        for (Hold hold : due) {
            earliestExpiry = Math.min(earliestExpiry, hold.expiresByNanos() - System.nanoTime());
        }
        scheduler.schedule(this::checkDeadlines, Math.max(0, earliestExpiry), TimeUnit.NANOSECONDS);
    }

    private boolean pastMaxHold(Hold hold) {
        return settings.pastMaxHold(hold.acquiredNanos());
    }

    private void renew(List<Hold> batch) {
        ScriptCall<List<Ownership>> call;
        try {
            call = commands.renew(batch, leaseMillis());
        } catch (RuntimeException e) {
            renewalFailed(batch, e);
            return;
        }
        call.answer()
                .orTimeout(roundTimeoutNanos, TimeUnit.NANOSECONDS)
                .whenCompleteAsync(
                        (results, error) -> {
                            if (error != null) {
                                renewalFailed(batch, error);
                            } else {
                                batch.forEach(inFlight::remove);
                                batch.forEach(suspects::remove);
                                applyResults(batch, results, call.sentNanos());
                            }
                        },
                        scheduler);
    }

    private void applyResults(List<Hold> batch, List<Ownership> results, long sentNanos) {
        int renewed = 0;
        for (int i = 0; i < batch.size(); i++) {
            Hold hold = batch.get(i);
            Ownership result = results.get(i);
            if (result == Ownership.OWNED) {
                hold.leaseAtLeast(sentNanos, leaseMillis());
                renewed++;
            } else {
                hold.markLost(result.lossReason());
                forget(hold);
            }
        }
        if (renewed > 0) {
            observer.renewed(renewed);
        }
        if (renewed < batch.size()) {
            observer.renewalFailed(batch.size() - renewed);
        }
    }

    private void renewalFailed(List<Hold> batch, Throwable error) {
        batch.forEach(inFlight::remove);
        if (batch.size() > 1) {
            suspects.addAll(batch);
        }
        observer.renewalFailed(batch.size());
        log.warn(
                "Renewing {} distlock lease(s) failed; a hold is reported lost once its lease must have run out: {}",
                batch.size(),
                error.toString());
    }

    private void checkDeadlines() {
        for (Hold hold : renewed) {
            if (hold.hasEnded()) {
                forget(hold);
            }
        }
    }

    private void forget(Hold hold) {
        renewed.remove(hold);
        suspects.remove(hold);
    }

    /** Batches by cluster slot; a suspect goes alone, so that whatever stalls it cannot stall the others again. */
    private List<List<Hold>> batches(List<Hold> holds) {
        Map<Integer, List<Hold>> bySlot = new HashMap<>();
        List<List<Hold>> batches = new ArrayList<>();
        for (Hold hold : holds) {
            if (suspects.contains(hold)) {
                batches.add(List.of(hold));
                continue;
            }
            int slot = clustered ? SlotHash.getSlot(hold.lockKey()) : 0;
            bySlot.computeIfAbsent(slot, any -> new ArrayList<>()).add(hold);
        }
        for (List<Hold> slotHolds : bySlot.values()) {
            for (int from = 0; from < slotHolds.size(); from += MAX_KEYS_PER_SCRIPT) {
                batches.add(slotHolds.subList(from, Math.min(from + MAX_KEYS_PER_SCRIPT, slotHolds.size())));
            }
        }
        return batches;
    }

    @Override
    public void close() {
        scheduler.shutdownNow();
    }
}
