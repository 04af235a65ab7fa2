package io.distlock.redis.internal.waiting;

import io.distlock.redis.internal.waiting.Waiter.State;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BiPredicate;
import java.util.function.BooleanSupplier;
import org.jspecify.annotations.Nullable;

/**
 * The waiters of one key in this process, in order of arrival, for the {@link WaitingRoom}: the turns and handovers
 * among them, and what they last saw of the holder's lease. Every change of a waiter's state happens under the queue's
 * lock; the table of states and transitions is the room's.
 */
public final class KeyQueue {

    /** How long a waiter that tries because the holder's lease ran out keeps the others from trying too. */
    private static final long EXPIRY_CLAIM_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

    /**
     * How many times in a row a key may be handed over inside this process while other processes wait for it; then it
     * is released in Redis so that they get their chance.
     */
    public static final int MAX_HANDOVERS_WHILE_OTHERS_WAIT = 8;

    private final String lockKey;
    private final int maxHandoversWhileOthersWait;
    private final BiPredicate<KeyQueue, Waiter> leave;
    private final BooleanSupplier roomClosed;
    private final ReentrantLock lock = new ReentrantLock();
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();

    /** A turn granted while every waiter was busy trying; the next one to wait takes it. */
    private boolean unclaimedTurn;

    private boolean holderExpiryKnown;
    private long holderExpiresByNanos;

    /**
     * Whether a waiter tries once the reservation for other processes ends, whatever holder's lease an answer that
     * arrives meanwhile reports: an attempt sent before the reservation, answered after it, reports the lease of a
     * hold that the reserving release ended.
     */
    private boolean lookAfterReservation;

    private long reservationEndsNanos;
    private int handoversWhileOthersWait;
    private boolean othersFirst;
    private boolean closing;

    /**
     * @param maxHandoversWhileOthersWait how many handovers in a row this process may make while other processes
     *     wait, {@link #MAX_HANDOVERS_WHILE_OTHERS_WAIT} unless handovers go without Redis
     * @param leave takes a waiter out of this queue, and this queue out of its room once nobody waits in it; true if
     *     the lock had been handed over to the waiter
     * @param roomClosed whether the room is closed, so that every wait fails
     */
    KeyQueue(
            String lockKey,
            int maxHandoversWhileOthersWait,
            BiPredicate<KeyQueue, Waiter> leave,
            BooleanSupplier roomClosed) {
        this.lockKey = lockKey;
        this.maxHandoversWhileOthersWait = maxHandoversWhileOthersWait;
        this.leave = leave;
        this.roomClosed = roomClosed;
    }

    String lockKey() {
        return lockKey;
    }

    Waiter join(String token, long leaseMillis) {
        lock.lock();
        try {
            Waiter waiter = new Waiter(this, lock, token, leaseMillis, waiters.isEmpty() || !holderExpiryKnown);
            waiters.addLast(waiter);
            return waiter;
        } finally {
            lock.unlock();
        }
    }

    void grant() {
        lock.lock();
        try {
            for (Waiter waiter : waiters) {
                if (waiter.is(State.WAITING)) {
                    waiter.moveTo(State.GRANTED);
                    waiter.signal();
                    return;
                }
            }
            unclaimedTurn = !waiters.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    @Nullable
    Waiter reserve() {
        lock.lock();
        try {
            if (handoversWhileOthersWait >= maxHandoversWhileOthersWait) {
                handoversWhileOthersWait = 0;
                othersFirst = true;
                return null;
            }
            for (Waiter waiter : waiters) {
                if (waiter.is(State.WAITING)) {
                    waiter.moveTo(State.RESERVED);
                    return waiter;
                }
            }
            return null;
        } finally {
            lock.unlock();
        }
    }

    boolean takeOthersFirst() {
        lock.lock();
        try {
            boolean taken = othersFirst;
            othersFirst = false;
            return taken;
        } finally {
            lock.unlock();
        }
    }

    void othersTurn(long nanos) {
        lock.lock();
        try {
            holderExpiryKnown = true;
            holderExpiresByNanos = System.nanoTime() + nanos;
            reservationEndsNanos = holderExpiresByNanos;
            lookAfterReservation = true;
            // Turns already granted stand: the release that granted one may have come after the reservation, and
            // this answer came late; taking the turn back would leave the waiters asleep on a free key.
            waiters.forEach(Waiter::signal);
        } finally {
            lock.unlock();
        }
    }

    void close() {
        lock.lock();
        try {
            closing = true;
            waiters.forEach(waiter -> waiter.signal());
        } finally {
            lock.unlock();
        }
    }

    /**
     * Takes a waiter out; a turn granted to it but not taken passes on to the next waiter.
     *
     * @return true if the lock had been handed over to the waiter
     */
    boolean remove(Waiter waiter) {
        lock.lock();
        try {
            waiters.remove(waiter);
            boolean delivered = waiter.is(State.DELIVERED);
            boolean granted = waiter.is(State.GRANTED);
            waiter.moveTo(State.LEFT);
            if (granted) {
                grant();
            }
            return delivered;
        } finally {
            lock.unlock();
        }
    }

    /** How many threads wait in this queue. */
    int size() {
        lock.lock();
        try {
            return waiters.size();
        } finally {
            lock.unlock();
        }
    }

    boolean isEmpty() {
        lock.lock();
        try {
            return waiters.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** Takes a waiter out of this queue, and this queue out of the room once nobody waits in it. */
    boolean leave(Waiter waiter) {
        return leave.test(this, waiter);
    }

    /** The holder's lease ends by {@code nanos} at the latest, by this process's clock. */
    void holderExpiresBy(long nanos) {
        lock.lock();
        try {
            holderExpiryKnown = true;
            holderExpiresByNanos = nanos;
        } finally {
            lock.unlock();
        }
    }

    /** Under the lock: a holder handed the key to a waiter of this queue; counts the handovers while others wait. */
    void handedOver(boolean othersWait) {
        handoversWhileOthersWait = othersWait ? handoversWhileOthersWait + 1 : 0;
    }

    /** Under the lock: the turn due to the waiter now, or null with its sleep set and the waiter WAITING. */
    @Nullable
    Turn turnDue(Waiter waiter, long deadlineNanos) {
        if (waiter.is(State.DELIVERED)) {
            return Turn.HANDED_OVER;
        }
        if ((closing || roomClosed.getAsBoolean()) && !waiter.is(State.RESERVED)) {
            return Turn.CLOSED;
        }
        if (waiter.is(State.GRANTED)) {
            waiter.moveTo(State.BUSY);
            return Turn.TRY;
        }
        if (!waiter.is(State.RESERVED) && unclaimedTurn) {
            unclaimedTurn = false;
            waiter.moveTo(State.BUSY);
            return Turn.TRY;
        }
        boolean forever = deadlineNanos == Waits.FOREVER;
        long now = System.nanoTime();
        if (!forever && now - deadlineNanos >= 0) {
            return Turn.TIMED_OUT;
        }
        long sleep = Long.MAX_VALUE;
        if (lookAfterReservation && !waiter.is(State.RESERVED)) {
            long untilReservationEnds = reservationEndsNanos - now;
            if (untilReservationEnds <= 0) {
                lookAfterReservation = false;
                holderExpiresByNanos = now;
            } else {
                sleep = untilReservationEnds;
            }
        }
        if (holderExpiryKnown && !waiter.is(State.RESERVED)) {
            long untilExpiry = holderExpiresByNanos - now;
            if (untilExpiry <= 0) {
                // One waiter tries; the rest wait for its answer, which moves the expiry on.
                holderExpiresByNanos = now + EXPIRY_CLAIM_NANOS;
                waiter.moveTo(State.BUSY);
                return Turn.TRY;
            }
            sleep = Math.min(sleep, untilExpiry);
        }
        if (!forever) {
            sleep = Math.min(sleep, deadlineNanos - now);
        }
        if (waiter.is(State.BUSY)) {
            waiter.moveTo(State.WAITING);
        }
        waiter.sleepFor(sleep);
        return null;
    }
}
