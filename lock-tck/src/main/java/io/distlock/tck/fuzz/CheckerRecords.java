package io.distlock.tck.fuzz;

import java.util.List;
import java.util.Map;

/**
 * What the checker's witness recorded in a run, read back by the parent from its own ledger: the violation counts and
 * descriptions of its judgements, and an offline check that each key's fencing tokens rose strictly in the order
 * sections entered: a writer's (or exclusive holder's) above every token before it, a reader's above the last
 * writer's before it; for the paths of a tree, above every token that entered a conflicting path before it.
 *
 * @param violations counts by kind: overlap, taken-early, fencing
 * @param details the first violations, described
 * @param sectionsChecked critical sections that entered holding their lock, over all keys
 * @param readerSections those of them that held a read lock
 * @param readersBesideReaders readers that entered while another reader was inside
 * @param besideInTree sections that entered a path while others were inside paths of the tree apart from it
 * @param refusedByRelatives acquisitions of a path refused while only its ancestors or descendants had sections inside
 * @param refusedByNoSection acquisitions of a path refused while no section was inside it, an ancestor or a descendant
 * @param fenceInversions entries of a key's fencing token list not above the tokens they must rise above
 * @param claimLapses times a claim had expired while its holder still held the lock
 * @param byKey the same, for each lock key
 */
public record CheckerRecords(
        Map<String, Long> violations,
        List<String> details,
        long sectionsChecked,
        long readerSections,
        long readersBesideReaders,
        long besideInTree,
        long refusedByRelatives,
        long refusedByNoSection,
        long fenceInversions,
        long claimLapses,
        Map<String, KeyRecords> byKey) {

    /**
     * What the checker recorded for one lock key.
     *
     * @param violations counts by kind
     * @param sectionsChecked critical sections that entered holding the key's lock
     * @param readerSections those of them that held a read lock
     * @param fenceInversions entries of the key's fencing token list not above the tokens they must rise above
     */
    public record KeyRecords(
            Map<String, Long> violations, long sectionsChecked, long readerSections, long fenceInversions) {

        /**
         * Every violation on the key, the witness's judgements' and the offline fencing check's.
         *
         * @return how many
         */
        public long totalViolations() {
            return sum(violations) + fenceInversions;
        }
    }

    /**
     * The violations of one kind the witness counted as it judged.
     *
     * @param kind {@code overlap}, {@code taken-early} or {@code fencing}
     * @return how many, over all keys
     */
    public long violation(String kind) {
        return violations.getOrDefault(kind, 0L);
    }

    /**
     * Every violation the checker recorded, the witness's judgements' and the offline fencing check's.
     *
     * @return how many, over all keys
     */
    public long totalViolations() {
        return sum(violations) + fenceInversions;
    }

    private static long sum(Map<String, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }
}
