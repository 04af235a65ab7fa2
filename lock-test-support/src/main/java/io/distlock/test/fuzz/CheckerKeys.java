package io.distlock.test.fuzz;

/** The checker's own Redis keys for one run, apart from the locks' keys: every run has its namespace. */
record CheckerKeys(String namespace) {

    /** The writer (or exclusive holder) inside the critical section of a lock key right now, expiring with its lease. */
    String claim(String key) {
        return namespace + "claim:" + key;
    }

    /**
     * The readers inside the critical section of a lock key right now: a sorted set of section ids, each scored by
     * when its claim ends in Redis's time (ms), no later than its own lease.
     */
    String readerClaims(String key) {
        return namespace + "reader-claims:" + key;
    }

    /** The highest fencing token that has entered a critical section of a lock key. */
    String lastFence(String key) {
        return namespace + "last-fence:" + key;
    }

    /** The fencing token of the writer (or exclusive holder) that last entered a critical section of a lock key. */
    String lastWriterFence(String key) {
        return namespace + "last-writer-fence:" + key;
    }

    /**
     * Every fencing token that entered a critical section of a lock key, in the order they entered; a reader's with
     * {@code r} before it.
     */
    String fences(String key) {
        return namespace + "fences:" + key;
    }

    /** How many readers entered a critical section while another reader's claim on it was alive. */
    String readersBesideReaders() {
        return namespace + "readers-beside-readers";
    }

    /**
     * The sections inside a path of a tree right now: a hash from section id to when its claim ends in Redis's time (ms,
     * or {@code inf}), a space, and the canonical path it holds.
     */
    String pathClaims(String tree) {
        return namespace + "path-claims:" + tree;
    }

    /** The highest fencing token that has entered a critical section of each path of a tree: a hash by path. */
    String pathFences(String tree) {
        return namespace + "path-fences:" + tree;
    }

    /** Every section that entered a path of a tree, in the order they entered: its fencing token, a space, its path. */
    String pathEntries(String tree) {
        return namespace + "path-entries:" + tree;
    }

    /** How many sections entered a path while a section was inside another path of the tree, apart from theirs. */
    String besideInTree() {
        return namespace + "beside-in-tree";
    }

    /**
     * How many acquisitions of a path were refused while a section was inside an ancestor or descendant of it and none
     * inside the path itself.
     */
    String refusedByRelatives() {
        return namespace + "refused-by-relatives";
    }

    /**
     * How many acquisitions of a path were refused while no section was inside the path, an ancestor or a descendant.
     */
    String refusedByNoSection() {
        return namespace + "refused-by-no-section";
    }

    /** A hash of violation counts by kind, written by the checker's scripts. */
    String violations() {
        return namespace + "violations";
    }

    /** A hash of the violation counts of one lock key, by kind. */
    String violationsOf(String key) {
        return namespace + "violations:" + key;
    }

    /** The first 200 violations, described. */
    String details() {
        return namespace + "details";
    }

    /**
     * How often a claim had expired while its holder still owned the lock with more than the claim's 2 ms margin left:
     * time in which the checker was blind.
     */
    String lapses() {
        return namespace + "claim-lapses";
    }

    /** Set by the parent once every worker process is ready, so all of them start hammering together. */
    String go() {
        return namespace + "go";
    }
}
