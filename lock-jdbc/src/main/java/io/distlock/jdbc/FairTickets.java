package io.distlock.jdbc;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The tickets of this JVM's fair waiters, by key: the first waiter of a key's line, the only one that asks the
 * database, keeps them all alive, so that the others keep their places in the queue without polling.
 */
final class FairTickets {

    private final ConcurrentHashMap<String, Set<String>> byKey = new ConcurrentHashMap<>();

    void add(String key, String ticketRow) {
        byKey.computeIfAbsent(key, k -> ConcurrentHashMap.newKeySet()).add(ticketRow);
    }

    void remove(String key, String ticketRow) {
        byKey.computeIfPresent(key, (k, tickets) -> {
            tickets.remove(ticketRow);
            return tickets.isEmpty() ? null : tickets;
        });
    }

    /** The ticket rows of this JVM's waiters for the key, at this moment. */
    List<String> of(String key) {
        Set<String> tickets = byKey.get(key);
        return tickets == null ? List.of() : List.copyOf(tickets);
    }
}
