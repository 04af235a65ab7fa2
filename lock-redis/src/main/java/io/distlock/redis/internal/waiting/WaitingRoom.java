package io.distlock.redis.internal.waiting;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jspecify.annotations.Nullable;

/**
 * Where the threads of this process wait for locks: one first-come-first-served queue per Redis key. An {@link
 * AsyncAcquisition} waits in the same queue without a thread, as if it were one.
 *
 * <p>Two things end a wait. A holder of this process that releases the key hands it straight to the longest waiting
 * thread ({@link #reserveNext}), in the same Redis round trip, so the key never looks free in between. Any other
 * release (announced over pub/sub, or a release that could not hand over) grants the longest waiting thread a turn to
 * try Redis; the others keep waiting, so the threads of one process never rush Redis together for the same key, and
 * a thread that arrives while others wait never overtakes them.
 *
 * <p>Waiters also try again on their own once the holder's lease, as last seen in Redis, must have run out, so a lost
 * notification costs latency, never liveness.
 *
 * <p>While other processes wait for a key, it is handed over inside this process at most {@link
 * KeyQueue#MAX_HANDOVERS_WHILE_OTHERS_WAIT} times in a row. Then the release reserves the key for the other
 * processes for a moment ({@link #othersTurn}), which Redis refuses to this process, so that the other processes, whose
 * waiters learn of the release one pub/sub hop later, really get their turn; this process's waiters without a turn wait
 * for the reservation to end, and then one of them tries, whatever the answers that arrived meanwhile said of the
 * holder.
 *
 * <p>A {@link Waiter} moves through these states; every transition happens under its queue's lock.
 *
 * <table>
 *   <caption>Waiter states and transitions</caption>
 *   <tr><th>From</th><th>Event</th><th>To</th></tr>
 *   <tr><td>(new)</td><td>{@link #enter}</td><td>BUSY</td></tr>
 *   <tr><td>BUSY</td><td>{@link Waiter#await} parks the thread, or {@link Waiter#turnOrWakeUp}
 *       finds no turn for an acquisition without a thread</td><td>WAITING</td></tr>
 *   <tr><td>WAITING</td><td>{@link #released}: a release without handover, here or announced</td><td>GRANTED</td></tr>
 *   <tr><td>WAITING</td><td>a turn nobody claimed, or the holder's lease ran out: {@code await} returns {@link
 *       Turn#TRY}</td><td>BUSY</td></tr>
 *   <tr><td>GRANTED</td><td>{@code await} returns {@link Turn#TRY}</td><td>BUSY</td></tr>
 *   <tr><td>WAITING</td><td>{@link #reserveNext} by a releasing holder of this process</td><td>RESERVED</td></tr>
 *   <tr><td>RESERVED</td><td>{@link Waiter#deliver}: Redis gave the key to the waiter's token</td>
 *       <td>DELIVERED</td></tr>
 *   <tr><td>RESERVED</td><td>{@link Waiter#deliverLocally}: the holder handed its key over inside its run, without
 *       Redis</td><td>DELIVERED</td></tr>
 *   <tr><td>RESERVED</td><td>{@link Waiter#unreserve}: the handover failed or may have</td><td>GRANTED</td></tr>
 *   <tr><td>any</td><td>{@link Waiter#leave}: a GRANTED turn passes to the next waiter; a DELIVERED lock is the
 *       leaver's to use or release</td><td>LEFT</td></tr>
 * </table>
 *
 * <p>{@link #close()} makes every {@code await} but a RESERVED one return {@link Turn#CLOSED}.
 */
public final class WaitingRoom {

    private final ConcurrentHashMap<String, KeyQueue> queues = new ConcurrentHashMap<>();
    private final int maxHandoversWhileOthersWait;
    private final ReleaseSignals readers = new ReleaseSignals();
    private final ReleaseSignals permits = ReleaseSignals.onePerRelease();
    private volatile boolean closed;

    /** A room whose keys are handed over at most {@link KeyQueue#MAX_HANDOVERS_WHILE_OTHERS_WAIT} times in a row. */
    public WaitingRoom() {
        this(KeyQueue.MAX_HANDOVERS_WHILE_OTHERS_WAIT);
    }

    /**
     * @param maxHandoversWhileOthersWait how many times in a row a key may be handed over in this process while other
     *     processes wait for it
     */
    public WaitingRoom(int maxHandoversWhileOthersWait) {
        this.maxHandoversWhileOthersWait = maxHandoversWhileOthersWait;
    }

    /**
     * Joins the queue of a key; {@link Waiter#leave()} must follow.
     *
     * @param token the waiter's owner token, used for its own attempts and for a handover to it
     * @param leaseMillis the lease the waiter asked for
     */
    public Waiter enter(String lockKey, String token, long leaseMillis) {
        Waiter[] joined = new Waiter[1];
        queues.compute(lockKey, (key, existing) -> {
            KeyQueue queue = existing == null
                    ? new KeyQueue(key, maxHandoversWhileOthersWait, this::leave, this::isClosed)
                    : existing;
            joined[0] = queue.join(token, leaseMillis);
            return queue;
        });
        return joined[0];
    }

    /** Where the readers of this process wait for releases; they never queue here. */
    public ReleaseSignals readers() {
        return readers;
    }

    /** Where this process's waiters for semaphore permits wait for releases, woken one per release. */
    public ReleaseSignals permits() {
        return permits;
    }

    /** A lock on the key was released without a handover, by this process or (over pub/sub) by another. */
    public void released(String lockKey) {
        readers.released(lockKey);
        permits.released(lockKey);
        KeyQueue queue = queues.get(lockKey);
        if (queue != null) {
            queue.grant();
        }
    }

    /**
     * A release reserved the key for other processes for {@code nanos}: this process's waiters try again only once
     * that reservation ended, unless a release wakes them first. A turn granted before this call stands, since the
     * answer that brings it may arrive after another process's release that granted the turn.
     */
    public void othersTurn(String lockKey, long nanos) {
        KeyQueue queue = queues.get(lockKey);
        if (queue != null) {
            queue.othersTurn(nanos);
        }
    }

    /**
     * How many threads wait, by the lock key (for a path lock: the tree's release key) they wait for; no zero counts.
     */
    public Map<String, Integer> waitingThreads() {
        Map<String, Integer> counts = new HashMap<>();
        queues.forEach((lockKey, queue) -> {
            int size = queue.size();
            if (size > 0) {
                counts.merge(lockKey, size, Integer::sum);
            }
        });
        readers.countWaiting(counts);
        permits.countWaiting(counts);
        return counts;
    }

    /** Wakes every waiter to fail: the lock is closing. Waiters that enter later fail at once. */
    public void close() {
        closed = true;
        readers.releasedAll();
        permits.releasedAll();
        queues.values().forEach(KeyQueue::close);
    }

    /** Wakes one waiter of every key, after notifications may have been missed (a resubscription). */
    void releasedAll() {
        readers.releasedAll();
        permits.releasedAll();
        queues.values().forEach(KeyQueue::grant);
    }

    /**
     * Picks the longest waiting thread of the key to hand the lock to, unless nobody waits here or the key was handed
     * over too often in a row while other processes wait for it. The waiter stays reserved until {@link
     * Waiter#deliver} or {@link Waiter#unreserve}.
     */
    @Nullable
    public Waiter reserveNext(String lockKey) {
        KeyQueue queue = queues.get(lockKey);
        return queue == null ? null : queue.reserve();
    }

    /**
     * Whether the last {@link #reserveNext} of the key refused because of the handover bound, so the release must
     * reserve the key for other processes; asking clears it.
     */
    public boolean othersFirst(String lockKey) {
        KeyQueue queue = queues.get(lockKey);
        return queue != null && queue.takeOthersFirst();
    }

    /**
     * Takes a waiter out of its key's queue, and the queue out of the room once nobody waits in it.
     *
     * @return true if the lock had been handed over to the waiter
     */
    boolean leave(KeyQueue queue, Waiter waiter) {
        boolean[] delivered = new boolean[1];
        queues.computeIfPresent(queue.lockKey(), (key, existing) -> {
            delivered[0] = existing.remove(waiter);
            return existing.isEmpty() ? null : existing;
        });
        return delivered[0];
    }

    /** Whether the room is closed: every wait fails. Read by each wait, so a queue made during close fails too. */
    boolean isClosed() {
        return closed;
    }
}
