package io.distlock.redis.internal.waiting;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.redis.internal.scripts.OwnerTokens;
import java.time.Duration;
import java.util.UUID;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

/**
 * The order in which this process hears of events for one key is not the order in which Redis saw them: a release of
 * another process, announced over pub/sub, can arrive before the answer to this process's own earlier command. These
 * tests replay such orders on the waiting room alone, without threads, since no timing can force them against a
 * server; the tests against Redis (such as {@code RedisLockSafetyTest}) show the same waits end.
 */
class WaitingRoomTest {

    private static final long LEASE_MILLIS = 30_000;
    private static final long RESERVATION_NANOS = Duration.ofMillis(20).toNanos();

    private final WaitingRoom room = new WaitingRoom();
    private final String lockKey = "{waiting-room-test:" + UUID.randomUUID() + "}";

    @Test
    void turnGrantedBeforeALateReservationAnswerStands() {
        Waiter trying = enter();
        Waiter waiting = enter();
        assertThat(turnNow(waiting)).isNull();

        // Redis: this process released with a reservation, the other process took the key, this process's attempt
        // marked it, the other process released and announced. Heard here: the announcement first, then the answers.
        room.released(lockKey);
        room.othersTurn(lockKey, RESERVATION_NANOS);
        trying.holderBusy(LEASE_MILLIS);

        assertThat(turnNow(waiting))
                .as("the key is free and nothing will announce it again")
                .isEqualTo(Turn.TRY);
        trying.leave();
        waiting.leave();
    }

    @Test
    void turnUnclaimedBeforeALateReservationAnswerStands() {
        Waiter trying = enter();

        room.released(lockKey);
        room.othersTurn(lockKey, RESERVATION_NANOS);
        trying.holderBusy(LEASE_MILLIS);

        assertThat(turnNow(trying)).isEqualTo(Turn.TRY);
        trying.leave();
    }

    @Test
    void waitersLookOnceTheReservationEndsWhateverALateAnswerSaysOfTheHolder() {
        Waiter trying = enter();
        Waiter waiting = enter();
        assertThat(turnNow(waiting)).isNull();

        // Redis: this process's attempt found its own holder, that holder released with a reservation, the other
        // process took the key and released it without announcing (nobody here had marked it). Heard here: the
        // reservation first, then the answer to the attempt, with the lease of the hold that had ended.
        long reservation = Duration.ofSeconds(5).toNanos();
        room.othersTurn(lockKey, reservation);
        trying.holderBusy(LEASE_MILLIS);

        assertThat(turnNow(waiting)).isNull();
        assertThat(waiting.sleepNanos()).as("woken when the reservation ends").isBetween(1L, reservation);
        trying.leave();
        waiting.leave();
    }

    @Test
    void oneWaiterLooksWhenTheReservationHasEnded() {
        Waiter first = enter();
        Waiter second = enter();
        first.holderBusy(LEASE_MILLIS);

        room.othersTurn(lockKey, 0);
        second.holderBusy(LEASE_MILLIS);

        assertThat(turnNow(first)).isEqualTo(Turn.TRY);
        assertThat(turnNow(second))
                .as("the other waiter waits for the first one's answer")
                .isNull();
        first.leave();
        second.leave();
    }

    @Test
    void waiterWithoutATurnWaitsOutTheReservationOnly() {
        Waiter trying = enter();
        Waiter waiting = enter();
        trying.holderBusy(LEASE_MILLIS);

        long reservation = Duration.ofSeconds(5).toNanos();
        room.othersTurn(lockKey, reservation);

        assertThat(turnNow(waiting)).isNull();
        assertThat(waiting.sleepNanos()).isBetween(1L, reservation);
        trying.leave();
        waiting.leave();
    }

    private Waiter enter() {
        return room.enter(lockKey, OwnerTokens.newToken(), LEASE_MILLIS);
    }

    /** The turn due to the waiter now, or null if it would sleep; without parking a thread. */
    private static @Nullable Turn turnNow(Waiter waiter) {
        return waiter.turnOrWakeUp(Waits.FOREVER, () -> {});
    }
}
