package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * A key's queue of fair acquisitions as rows of the lock table, beside the key's own row, which the queue's first
 * waiter takes as any other owner does.
 *
 * <ul>
 *   <li>The queue row, {@code U+0001 key U+0001 q}, keeps the last ticket handed out in its fencing column and the
 *       lowest ticket that may still wait as {@code ~head:<n>}.
 *   <li>Each waiter holds a ticket row, {@code U+0001 key U+0001 t<n>}, whose expiry its process keeps moving ahead
 *       while it waits: a waiter whose process died leaves the line when its ticket runs out.
 * </ul>
 *
 * <p>A first try locks the queue row ({@code SELECT ... FOR UPDATE}) and takes the key if no ticket is live and the
 * key is free, and else writes the next ticket; a waiter behind others of this JVM joins so at once. A later try locks
 * the queue row, keeps the tickets of this JVM's waiters alive, and takes the key (the lock's own statements, in the
 * same transaction) only while no ticket of another process ahead of its own is live; a ticket ahead that ran out is
 * passed over, and the head moves past it. This JVM's own waiters go in the order of its line, in which only the
 * first asks. The try that takes the key deletes its ticket, and a waiter that gives up deletes its own. Lock
 * keys never start with {@code U+0001} ({@link JdbcLeaseStore#validateKey}), and a semaphore's slots are numbers, so no
 * other key ever uses these rows.
 */
final class FairRows {

    /** How the queue row's owner column keeps the lowest ticket that may still wait; owner tokens never start so. */
    private static final String HEAD = "~head:";

    private final LockRows rows;
    private final LiveRows live;
    private final Connections connections;
    private final StoreErrors errors;
    private final String lockQueue;
    private final String insertQueue;
    private final String handOut;
    private final String insertTicket;
    private final String moveHead;
    private final String deleteTicket;
    private final String table;
    private final String stayUntil;

    FairRows(LockRows rows, Connections connections, StoreErrors errors, Dialect dialect, String table) {
        this.rows = rows;
        this.live = new LiveRows(rows, table, dialect);
        this.connections = connections;
        this.errors = errors;
        this.table = table;
        this.stayUntil = dialect.nowPlusMillis();
        this.lockQueue = "SELECT owner_token, fencing FROM " + table + " WHERE lock_key = ? FOR UPDATE";
        this.insertQueue = "INSERT INTO " + table + " (lock_key, owner_token, expires_at, fencing) VALUES (?, '" + HEAD
                + "1', " + stayUntil + ", 0)";
        this.handOut = "UPDATE " + table + " SET fencing = ?, expires_at = " + stayUntil + " WHERE lock_key = ?";
        this.insertTicket = "INSERT INTO " + table + " (lock_key, owner_token, expires_at, fencing) VALUES (?, ?, "
                + stayUntil + ", ?)";
        this.moveHead = "UPDATE " + table + " SET owner_token = ?, expires_at = " + stayUntil + " WHERE lock_key = ?";
        this.deleteTicket = "DELETE FROM " + table + " WHERE lock_key = ?";
    }

    /** The row of the key's queue, whose name is also the line of this JVM's fair waiters for the key. */
    static String queue(String key) {
        return PermitRows.MARK + key + PermitRows.MARK + "q";
    }

    /** The row of one ticket of the key's queue. */
    static String ticket(String key, long ticket) {
        return PermitRows.MARK + key + PermitRows.MARK + "t" + ticket;
    }

    /** How many characters the rows of a key's queue add to the key's. */
    static int rowNameOverhead() {
        return ticket("", Long.MAX_VALUE).length();
    }

    /**
     * Joins the key's queue with the next ticket, which stays live for {@code stayMillis} unless it is kept alive.
     *
     * @return the ticket's number
     */
    long join(String key, String owner, long stayMillis) throws SQLException {
        return connections.transactionAgainAfterDuplicateKey(
                errors, connection -> joinLocked(connection, key, owner, stayMillis));
    }

    /**
     * The outcome of a first try: the key's fencing token if it took the key, else the ticket it joined the queue with.
     *
     * @param token the fencing token, or null if the key was not taken
     * @param ticket the ticket's number, or 0 if the key was taken
     */
    record FirstTry(@Nullable Long token, long ticket) {}

    /**
     * Takes the key if no ticket of its queue is live, and otherwise, or while another owner holds the key, joins the
     * queue with the next ticket: one transaction, so that an acquisition that finds the key free and nobody waiting
     * costs no ticket.
     *
     * @param waitingHere the tickets of this JVM's waiters for the key, kept alive and never waited for
     */
    FirstTry takeOrJoin(
            String key, Set<Long> waitingHere, String owner, String holder, long leaseMillis, long stayMillis)
            throws SQLException {
        return connections.transactionAgainAfterDuplicateKey(
                errors,
                connection -> takeOrJoinLocked(connection, key, waitingHere, owner, holder, leaseMillis, stayMillis));
    }

    /**
     * Takes the key for the ticket's owner if no earlier ticket of another process is live in the key's queue, keeping
     * the tickets of this JVM's waiters alive for {@code stayMillis}. This JVM's own waiters are served in the order of
     * its line, which only lets its first waiter ask: waiting for their tickets here could wait for a waiter that is
     * behind this one in the line, and so for itself.
     *
     * @param waitingHere the tickets of this JVM's waiters for the key, the ticket's own among them
     * @return the fencing token, or null while an earlier ticket waits or another owner holds the key
     */
    @Nullable
    Long take(
            String key,
            long ticket,
            Set<Long> waitingHere,
            String owner,
            String holder,
            long leaseMillis,
            long stayMillis)
            throws SQLException {
        return connections.transaction(connection -> {
            String queue = queue(key);
            long head = Math.min(ticket, queueRow(connection, queue).head());
            keepAlive(connection, key, waitingHere, stayMillis);
            Long firstLive = firstLive(connection, key, head, ticket, waitingHere);
            long localHead = lowestOther(waitingHere, ticket);
            if (firstLive != null) {
                rows.write(connection, moveHead, HEAD + Math.min(firstLive, localHead), stayMillis, queue);
                return null;
            }
            Long token = rows.takeWithin(connection, key, owner, holder, leaseMillis);
            long nextHead = token == null ? ticket : ticket + 1;
            rows.write(connection, moveHead, HEAD + Math.min(nextHead, localHead), stayMillis, queue);
            if (token != null) {
                rows.write(connection, deleteTicket, ticket(key, ticket));
            }
            return token;
        });
    }

    /** Takes the ticket out of the key's queue, for a waiter that stopped waiting. */
    void leave(String key, long ticket) throws SQLException {
        connections.autoCommit(connection -> rows.write(connection, deleteTicket, ticket(key, ticket)));
    }

    private FirstTry takeOrJoinLocked(
            Connection connection,
            String key,
            Set<Long> waitingHere,
            String owner,
            String holder,
            long leaseMillis,
            long stayMillis)
            throws SQLException {
        String queue = queue(key);
        QueueRow row = queueRow(connection, queue);
        long next = row.last() + 1;
        keepAlive(connection, key, waitingHere, stayMillis);
        Long firstLive = firstLive(connection, key, row.head(), next, waitingHere);
        long localHead = lowestOther(waitingHere, next);
        if (firstLive == null) {
            Long token = rows.takeWithin(connection, key, owner, holder, leaseMillis);
            if (token != null) {
                long head = Math.min(next, localHead);
                if (row.head() != head) {
                    rows.write(connection, moveHead, HEAD + head, stayMillis, queue);
                }
                return new FirstTry(token, 0);
            }
        }
        rows.write(connection, handOut, next, stayMillis, queue);
        rows.write(connection, insertTicket, ticket(key, next), owner, stayMillis, next);
        long head = Math.min(firstLive == null ? next : firstLive, localHead);
        if (head != row.head()) {
            rows.write(connection, moveHead, HEAD + head, stayMillis, queue);
        }
        return new FirstTry(null, next);
    }

    /**
     * The first ticket from {@code from} up to, not including, {@code to} that is live and not one of this JVM's, or null
     * if there is none.
     */
    private @Nullable Long firstLive(Connection connection, String key, long from, long to, Set<Long> waitingHere)
            throws SQLException {
        List<String> others = new ArrayList<>();
        for (long ticket = from; ticket < to; ticket++) {
            if (!waitingHere.contains(ticket)) {
                others.add(ticket(key, ticket));
            }
        }
        Set<String> waiting = live.of(connection, others);
        for (long ticket = from; ticket < to; ticket++) {
            if (waiting.contains(ticket(key, ticket))) {
                return ticket;
            }
        }
        return null;
    }

    /**
     * The lowest ticket of this JVM's waiters other than {@code own}, or {@link Long#MAX_VALUE}: the head never moves
     * past it, so that other processes' waiters still wait for it.
     */
    private static long lowestOther(Set<Long> waitingHere, long own) {
        long lowest = Long.MAX_VALUE;
        for (long ticket : waitingHere) {
            if (ticket != own && ticket < lowest) {
                lowest = ticket;
            }
        }
        return lowest;
    }

    private long joinLocked(Connection connection, String key, String owner, long stayMillis) throws SQLException {
        String queue = queue(key);
        QueueRow row = queueRow(connection, queue);
        long ticket = row.last() + 1;
        rows.write(connection, handOut, ticket, stayMillis, queue);
        rows.write(connection, insertTicket, ticket(key, ticket), owner, stayMillis, ticket);
        return ticket;
    }

    /** Locks the key's queue row, making it first where the key has none yet. */
    private QueueRow queueRow(Connection connection, String queue) throws SQLException {
        try (PreparedStatement read = rows.prepare(connection, lockQueue, queue);
                ResultSet row = read.executeQuery()) {
            if (row.next()) {
                String owner = row.getString(1);
                long head =
                        owner != null && owner.startsWith(HEAD) ? Long.parseLong(owner.substring(HEAD.length())) : 1;
                return new QueueRow(head, row.getLong(2));
            }
        }
        rows.write(connection, insertQueue, queue, 0L);
        return new QueueRow(1, 0);
    }

    private void keepAlive(Connection connection, String key, Set<Long> tickets, long stayMillis) throws SQLException {
        if (tickets.isEmpty()) {
            return;
        }
        List<Object> parameters = new ArrayList<>();
        parameters.add(stayMillis);
        tickets.forEach(ticket -> parameters.add(ticket(key, ticket)));
        String marks = String.join(", ", Collections.nCopies(tickets.size(), "?"));
        rows.write(
                connection,
                "UPDATE " + table + " SET expires_at = " + stayUntil + " WHERE lock_key IN (" + marks + ")",
                parameters.toArray());
    }

    /**
     * The key's queue as its row says.
     *
     * @param head the lowest ticket that may still wait
     * @param last the last ticket handed out
     */
    private record QueueRow(long head, long last) {}
}
