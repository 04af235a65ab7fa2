package io.distlock.jdbc;

import java.time.Duration;

/**
 * How a {@link JdbcLeaseStore}'s waiters poll, and so how long the marks that waiters leave in the lock table outlive
 * their last poll: a waiting writer's mark and a fair waiter's ticket.
 *
 * @param minPoll the first pause between polls
 * @param maxPoll the longest pause between polls
 */
record Polling(Duration minPoll, Duration maxPoll) {

    /** The shortest time that a waiting writer's mark keeps new readers out after its last poll. */
    private static final Duration MIN_WAIT_MARK = Duration.ofMillis(500);

    /** The shortest time that a fair waiter's ticket stays live after its process last kept it alive. */
    private static final Duration MIN_TICKET_STAY = Duration.ofSeconds(2);

    /** The pauses of one acquisition's polls. */
    Backoff backoff() {
        return new Backoff(minPoll, maxPoll);
    }

    /**
     * How long a waiting writer's mark keeps new readers out after its last refused poll: three of the longest pauses
     * between polls, and at least half a second, so that a poll delayed by a slow statement still finds it running.
     */
    Duration waitMark() {
        Duration threePolls = maxPoll.multipliedBy(3);
        return threePolls.compareTo(MIN_WAIT_MARK) < 0 ? MIN_WAIT_MARK : threePolls;
    }

    /**
     * How long a waiter's ticket in a key's fair queue stays live after its process last kept it alive: ten of the
     * longest pauses between polls, and at least two seconds, so that a slow statement does not cost a living waiter
     * its place.
     */
    Duration ticketStay() {
        Duration tenPolls = maxPoll.multipliedBy(10);
        return tenPolls.compareTo(MIN_TICKET_STAY) < 0 ? MIN_TICKET_STAY : tenPolls;
    }
}
