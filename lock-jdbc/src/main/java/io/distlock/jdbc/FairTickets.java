package io.distlock.jdbc;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tickets of this JVM's fair waiters, by key: the first waiter of a key's line, the only one that asks the
 * database, keeps them all alive, so that the others keep their places in the queue without polling. Among themselves
 * this JVM's waiters go in the order of its line, which decides which of them asks, so the first does not wait for
 * their tickets.
 */
final class FairTickets {

    private final ConcurrentHashMap<String, Set<Long>> byKey = new ConcurrentHashMap<>();

    void add(String key, long ticket) {
        byKey.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(ticket);
    }

    void remove(String key, long ticket) {
        byKey.computeIfPresent(key, (k, tickets) -> {
            tickets.remove(ticket);
            return tickets.isEmpty() ? null : tickets;
        });
    }

    /** The tickets of this JVM's waiters for the key, at this moment. */
    Set<Long> of(String key) {
        Set<Long> tickets = byKey.get(key);
        return tickets == null ? Set.of() : Set.copyOf(tickets);
    }
}
