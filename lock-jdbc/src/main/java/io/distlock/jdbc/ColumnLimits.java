package io.distlock.jdbc;

import io.distlock.spi.InstanceNames;

/**
 * What the lock table's columns hold: refuses a key, owner token or holder name that they cannot keep, or that would
 * be taken for one of the rows the store adds beside a key's own.
 */
final class ColumnLimits {

    /** The longest owner token the table's {@code owner_token} column holds. */
    static final int MAX_OWNER_LENGTH = 64;

    private final int maxKeyLength;
    private final String description;

    /**
     * @param maxKeyLength the longest key of a lock in this database: its table's key column, or what its index takes
     * @param description the store's description, for messages
     */
    ColumnLimits(int maxKeyLength, String description) {
        this.maxKeyLength = maxKeyLength;
        this.description = description;
    }

    /** Refuses a key that is too long, or that starts as the rows of semaphore keys, queues and readers do. */
    void checkKey(String key) {
        if (key.length() > maxKeyLength) {
            throw new IllegalArgumentException("key is " + key.length() + " characters; a key in " + description
                    + " is at most " + maxKeyLength + " characters");
        }
        if (key.charAt(0) == PermitRows.MARK) {
            throw new IllegalArgumentException("key must not start with the control character U+0001, which "
                    + description + " keeps for the rows it adds beside keys: semaphores' permits, readers and fair"
                    + " queues");
        }
    }

    /** Refuses a tree's name that holds the mark of the store's own rows, or a tree and path too long together. */
    void checkTreeAndPath(String tree, String path) {
        if (tree.indexOf(PermitRows.MARK) >= 0) {
            throw new IllegalArgumentException("tree name must not contain the control character U+0001, which "
                    + description + " keeps to separate the names of the rows of path locks");
        }
        int longest = maxKeyLength - PathRows.ROW_NAME_OVERHEAD;
        if (tree.length() + path.length() > longest) {
            throw new IllegalArgumentException("tree name and path are " + (tree.length() + path.length())
                    + " characters together; in " + description + " they are at most " + longest
                    + " characters together");
        }
    }

    /** Refuses a key too long for the names of the rows that a kind adds to it. */
    void checkRowNameFits(String key, int overhead, String what) {
        int longest = maxKeyLength - overhead;
        if (key.length() > longest) {
            throw new IllegalArgumentException("key is " + key.length() + " characters; " + what + " in " + description
                    + " is at most " + longest + " characters");
        }
    }

    /** Refuses an owner token or holder name that the table's columns cannot keep, or that marks rows of its own. */
    void checkOwner(String owner, String holder) {
        if (owner.startsWith("~")) {
            throw new IllegalArgumentException(
                    "owner token must not start with '~', which marks rows that hold no owner, such as one an"
                            + " operator freed");
        }
        if (owner.length() > MAX_OWNER_LENGTH) {
            throw new IllegalArgumentException("owner token is " + owner.length() + " characters; the lock table "
                    + "holds at most " + MAX_OWNER_LENGTH);
        }
        if (holder.length() > InstanceNames.MAX_LENGTH) {
            throw new IllegalArgumentException("holder name is " + holder.length() + " characters; the lock table "
                    + "holds at most " + InstanceNames.MAX_LENGTH);
        }
    }
}
