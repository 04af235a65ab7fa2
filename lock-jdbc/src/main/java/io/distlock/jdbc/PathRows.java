package io.distlock.jdbc;

import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jspecify.annotations.Nullable;

/**
 * Takes the paths of trees as rows of the lock table. A tree has a tree row, {@code U+0001 U+0001 tree U+0001 t}, that
 * holds its fencing counter; each held path its holder row, {@code ... U+0001 h path}, with the holder's owner, lease
 * and token; and each node with holds below it a below row, {@code ... U+0001 d path}, whose {@code fencing} column
 * names its highest slot, and slot rows {@code ... U+0001 d path//n}, one per hold below the node, each with that
 * hold's owner and lease. A path's segments are never empty, so no path's rows end in another's slot names.
 *
 * <p>Every take, release and extension locks the tree row first ({@code SELECT ... FOR UPDATE}), so that the changes of
 * one tree follow each other. A take reads the holder rows of the path and of each ancestor and the below rows of
 * them all in one query, then the slot rows of the path and of each ancestor in another; it takes the path only while
 * no holder row of the path or of an ancestor and no slot row of the path is live on the database's clock. It then
 * writes its owner and lease into a free slot of each ancestor: O(depth) rows, and the slots that the holds below each
 * ancestor use at once. A hold whose holder died frees its slots when its lease ends, as its holder row does, so an
 * ancestor never waits longer for a dead holder than for a live one.
 *
 * <p>A below row's highest slot is set again at each take below the node, to the highest live slot or the one taken,
 * so it follows how many holds are below the node at once. Below rows and the tree row keep an expiry no earlier than
 * any lease granted or extended below them, so that the clean-up of unused rows leaves them while a slot is live.
 *
 * <p>No lock key starts with {@code U+0001} ({@link ColumnLimits#checkKey}), and the rows of the other kinds start with
 * {@code U+0001} and a key, never with two, so none of them is one of these rows; a tree's name must not hold {@code
 * U+0001}, so no tree's rows are another's.
 */
final class PathRows {

    /** How much longer than the tree's name and the path together the longest row name of a path is. */
    static final int ROW_NAME_OVERHEAD = 14;

    /** The owner column of the rows that hold no owner: the tree row and the below rows. */
    private static final String NO_OWNER = "~path";

    /** What separates a below row's name from its slot number: never part of a path. */
    private static final String SLOT = "//";

    private final LockRows rows;
    private final Connections connections;
    private final StoreErrors errors;
    private final SlotWrites slotWrites;
    private final String table;
    private final String now;
    private final String lockTree;
    private final String insertTree;
    private final String advanceTree;
    private final String fencingOfTree;
    private final String insertBelow;
    private final String setBelow;
    private final String releaseRows;
    private final String extendRows;
    private final String laterRows;

    PathRows(LockRows rows, Connections connections, StoreErrors errors, Dialect dialect, String table, LockSql sql) {
        this.rows = rows;
        this.connections = connections;
        this.errors = errors;
        this.slotWrites = new SlotWrites(rows, dialect, table, sql);
        this.table = table;
        this.now = dialect.now();
        String expiry = dialect.nowPlusMillis();
        String atLeastExpiry = "expires_at = CASE WHEN expires_at IS NULL OR expires_at < " + expiry + " THEN " + expiry
                + " ELSE expires_at END";
        String next =
                sql.fencingFromClock() ? "GREATEST(fencing + 1, " + dialect.epochMicrosNow() + ")" : "fencing + 1";
        String ownedAndLive = "owner_token = ? AND expires_at > " + now + " AND lock_key IN ";
        this.lockTree = "SELECT fencing FROM " + table + " WHERE lock_key = ? FOR UPDATE";
        this.insertTree = "INSERT INTO " + table + " (lock_key, owner_token, expires_at, fencing) VALUES (?, '"
                + NO_OWNER + "', " + now + ", 0)";
        this.advanceTree = "UPDATE " + table + " SET fencing = " + next + ", " + atLeastExpiry + " WHERE lock_key = ?";
        this.fencingOfTree = "SELECT fencing FROM " + table + " WHERE lock_key = ?";
        this.insertBelow = "INSERT INTO " + table + " (lock_key, owner_token, expires_at, fencing) VALUES (?, '"
                + NO_OWNER + "', " + expiry + ", ?)";
        this.setBelow = "UPDATE " + table + " SET fencing = ?, " + atLeastExpiry + " WHERE lock_key = ?";
        this.releaseRows = "UPDATE " + table + " SET owner_token = NULL, expires_at = " + now
                + (sql.namesHolder() ? ", locked_by = NULL, locked_at = NULL" : "") + " WHERE " + ownedAndLive;
        this.extendRows = "UPDATE " + table + " SET expires_at = " + expiry + " WHERE " + ownedAndLive;
        this.laterRows = "UPDATE " + table + " SET " + atLeastExpiry + " WHERE lock_key IN ";
    }

    /**
     * A path granted: its fencing token, and the rows its hold keeps, its holder row first and then a slot of each
     * ancestor.
     */
    record Granted(long fencingToken, List<String> heldRows) {}

    /** The holder row of a path: the line of this JVM's waiters for it, and the row its grant names. */
    static String holderRow(String tree, List<String> path) {
        return node(tree, 'h', path);
    }

    private static String treeRow(String tree) {
        return node(tree, 't', List.of());
    }

    private static String belowRow(String tree, List<String> path) {
        return node(tree, 'd', path);
    }

    private static String slot(String belowRow, int slot) {
        return belowRow + SLOT + slot;
    }

    private static String node(String tree, char kind, List<String> path) {
        return "" + PermitRows.MARK + PermitRows.MARK + tree + PermitRows.MARK + kind + String.join("/", path);
    }

    /**
     * Takes the path if no live hold of the tree is on it, on an ancestor or below it, on the database's clock.
     *
     * @return the grant, or null while a conflicting hold is live
     */
    @Nullable
    Granted take(String tree, List<String> path, String owner, String holder, long leaseMillis) throws SQLException {
        return connections.transactionAgainAfterDuplicateKey(
                errors, connection -> takeLocked(connection, tree, path, owner, holder, leaseMillis));
    }

    /** Frees the hold's rows if its lease is live; whether it was. */
    boolean release(String tree, List<String> heldRows, String owner) throws SQLException {
        return connections.transaction(connection -> {
            if (!lockTree(connection, tree)) {
                return false;
            }
            return rows.write(
                            connection,
                            releaseRows + LockRows.marks(heldRows.size()),
                            LockRows.parameters(heldRows, owner))
                    > 0;
        });
    }

    /**
     * Frees whatever rows of the path the owner holds, for a take whose answer was lost: its holder row, and a slot of
     * each ancestor, found among their slots.
     *
     * @return whether the owner held the path
     */
    boolean releaseAny(String tree, List<String> path, String owner) throws SQLException {
        return connections.transaction(connection -> {
            if (!lockTree(connection, tree)) {
                return false;
            }
            List<String> named = new ArrayList<>();
            named.add(holderRow(tree, path));
            Map<String, Integer> highest = new HashMap<>();
            read(connection, ancestorsBelowRows(tree, path), new HashSet<>(), highest);
            highest.forEach((below, slots) -> {
                for (int slot = 1; slot <= slots; slot++) {
                    named.add(slot(below, slot));
                }
            });
            return rows.write(connection, releaseRows + LockRows.marks(named.size()), LockRows.parameters(named, owner))
                    > 0;
        });
    }

    /**
     * Moves the expiry of the hold's rows to {@code leaseMillis} from now if it is live, and that of its ancestors' below
     * rows and of the tree row where that is later.
     */
    boolean extend(String tree, List<String> path, List<String> heldRows, String owner, long leaseMillis)
            throws SQLException {
        return connections.transaction(connection -> {
            if (!lockTree(connection, tree)) {
                return false;
            }
            Object[] extended = LockRows.parameters(heldRows, leaseMillis, owner);
            if (rows.write(connection, extendRows + LockRows.marks(heldRows.size()), extended) != heldRows.size()) {
                return false;
            }
            List<String> later = new ArrayList<>(ancestorsBelowRows(tree, path));
            later.add(treeRow(tree));
            rows.write(
                    connection,
                    laterRows + LockRows.marks(later.size()),
                    LockRows.parameters(later, leaseMillis, leaseMillis));
            return true;
        });
    }

    private @Nullable Granted takeLocked(
            Connection connection, String tree, List<String> path, String owner, String holder, long leaseMillis)
            throws SQLException {
        String treeRow = treeRow(tree);
        if (!lockTree(connection, tree)) {
            rows.write(connection, insertTree, treeRow);
        }
        List<String> holders = new ArrayList<>(path.size() + 1);
        for (int depth = 0; depth <= path.size(); depth++) {
            holders.add(holderRow(tree, path.subList(0, depth)));
        }
        List<String> ancestorsBelow = ancestorsBelowRows(tree, path);
        String ownBelow = belowRow(tree, path);
        List<String> named = new ArrayList<>(holders);
        named.addAll(ancestorsBelow);
        named.add(ownBelow);
        Set<String> live = new HashSet<>();
        Map<String, Integer> highest = new HashMap<>();
        read(connection, named, live, highest);
        if (holders.stream().anyMatch(live::contains)) {
            return null;
        }
        List<String> slots = new ArrayList<>();
        for (String below : named.subList(holders.size(), named.size())) {
            for (int slot = 1; slot <= highest.getOrDefault(below, 0); slot++) {
                slots.add(slot(below, slot));
            }
        }
        Set<String> liveSlots = new HashSet<>();
        Map<String, Integer> existingSlots = new HashMap<>();
        read(connection, slots, liveSlots, existingSlots);
        int ownSlots = highest.getOrDefault(ownBelow, 0);
        for (int slot = 1; slot <= ownSlots; slot++) {
            if (liveSlots.contains(slot(ownBelow, slot))) {
                return null;
            }
        }
        long token = advance(connection, treeRow, leaseMillis);
        String holderRow = holderRow(tree, path);
        slotWrites.grant(connection, holderRow, owner, holder, leaseMillis, token);
        List<String> held = new ArrayList<>(ancestorsBelow.size() + 1);
        held.add(holderRow);
        List<String> existing = new ArrayList<>();
        List<String> missing = new ArrayList<>();
        List<String> unchanged = new ArrayList<>();
        for (String below : ancestorsBelow) {
            String slot = takeSlot(connection, below, highest, liveSlots, leaseMillis, unchanged);
            held.add(slot);
            (existingSlots.containsKey(slot) ? existing : missing).add(slot);
        }
        slotWrites.grantAll(connection, existing, missing, owner, holder, leaseMillis, token);
        if (!unchanged.isEmpty()) {
            rows.write(
                    connection,
                    laterRows + LockRows.marks(unchanged.size()),
                    LockRows.parameters(unchanged, leaseMillis, leaseMillis));
        }
        return new Granted(token, held);
    }

    /**
     * The lowest free slot of a below row. Its highest slot becomes the highest live one or this, whichever is higher;
     * a below row whose highest slot stays as it was is added to {@code unchanged}, whose expiry the caller moves, and
     * one the node did not have is made.
     */
    private String takeSlot(
            Connection connection,
            String below,
            Map<String, Integer> highest,
            Set<String> liveSlots,
            long leaseMillis,
            List<String> unchanged)
            throws SQLException {
        Integer slots = highest.get(below);
        int free = 1;
        while (liveSlots.contains(slot(below, free))) {
            free++;
        }
        int top = free;
        for (int slot = free + 1; slots != null && slot <= slots; slot++) {
            if (liveSlots.contains(slot(below, slot))) {
                top = slot;
            }
        }
        if (slots == null) {
            rows.write(connection, insertBelow, below, leaseMillis, (long) top);
        } else if (slots == top) {
            unchanged.add(below);
        } else {
            rows.write(connection, setBelow, (long) top, leaseMillis, leaseMillis, below);
        }
        return slot(below, free);
    }

    /** Locks the tree's row; false if the tree has none yet. */
    private boolean lockTree(Connection connection, String tree) throws SQLException {
        try (PreparedStatement read = rows.prepare(connection, lockTree, treeRow(tree));
                ResultSet row = read.executeQuery()) {
            return row.next();
        }
    }

    /**
     * Reads the named rows in one query: which of them are live on the database's clock, and for each that exists,
     * its {@code fencing} column, which a below row's highest slot is.
     */
    private void read(Connection connection, List<String> named, Set<String> live, Map<String, Integer> fencing)
            throws SQLException {
        if (named.isEmpty()) {
            return;
        }
        String query = "SELECT lock_key, CASE WHEN owner_token IS NOT NULL AND expires_at > " + now
                + " THEN 1 ELSE 0 END, fencing FROM " + table + " WHERE lock_key IN " + LockRows.marks(named.size());
        try (PreparedStatement select = rows.prepare(connection, query, named.toArray());
                ResultSet row = select.executeQuery()) {
            while (row.next()) {
                String name = row.getString(1);
                if (row.getInt(2) == 1) {
                    live.add(name);
                }
                fencing.put(name, (int) Math.min(Integer.MAX_VALUE, row.getLong(3)));
            }
        }
    }

    /** Counts the grant on the tree row, which keeps the latest lease granted in the tree; the new token. */
    private long advance(Connection connection, String treeRow, long leaseMillis) throws SQLException {
        rows.write(connection, advanceTree, leaseMillis, leaseMillis, treeRow);
        try (PreparedStatement read = rows.prepare(connection, fencingOfTree, treeRow);
                ResultSet row = read.executeQuery()) {
            if (!row.next()) {
                throw new SQLException("the row of a path lock's tree could not be read back");
            }
            return row.getLong(1);
        }
    }

    /** The below rows of the path's strict ancestors, root first. */
    private static List<String> ancestorsBelowRows(String tree, List<String> path) {
        List<String> below = new ArrayList<>(path.size());
        for (int depth = 0; depth < path.size(); depth++) {
            below.add(belowRow(tree, path.subList(0, depth)));
        }
        return below;
    }
}
