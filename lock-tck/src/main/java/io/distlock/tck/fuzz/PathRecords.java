package io.distlock.tck.fuzz;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The offline check of a path run's fencing tokens, over the {@link PathLedger}'s entries after the run: in the order
 * sections entered, each token must be above every token that entered the same path, an ancestor or a descendant
 * before it. The paths are compared by {@link PathTree#conflicts}, apart from the ledger's own comparison.
 */
final class PathRecords {

    private PathRecords() {}

    /** A section that entered a path with a fencing token. */
    record Entry(long token, String path) {}

    /**
     * Entries, in the order they entered, whose token is not above the highest token that entered a conflicting path
     * before them. O(entries x paths), which is small for a test.
     */
    static long fenceInversions(List<Entry> entries) {
        Map<String, Long> highestByPath = new LinkedHashMap<>();
        long inversions = 0;
        for (Entry entry : entries) {
            for (Map.Entry<String, Long> earlier : highestByPath.entrySet()) {
                if (earlier.getValue() >= entry.token() && PathTree.conflicts(entry.path(), earlier.getKey())) {
                    inversions++;
                    break;
                }
            }
            highestByPath.merge(entry.path(), entry.token(), Math::max);
        }
        return inversions;
    }
}
