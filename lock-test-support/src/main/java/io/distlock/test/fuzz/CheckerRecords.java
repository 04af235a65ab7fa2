package io.distlock.test.fuzz;

import io.distlock.test.TestRedis;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the checker left in Redis after a run, read back by the parent: the violation counts and descriptions written
 * by its scripts, and an offline check that each key's fencing tokens rose strictly in the order sections entered:
 * a writer's (or exclusive holder's) above every token before it, a reader's above the last writer's before it.
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
         * Every violation on the key, the checker's and the offline fencing check's.
         *
         * @return how many
         */
        public long totalViolations() {
            return sum(violations) + fenceInversions;
        }
    }

    static CheckerRecords read(TestRedis redis, CheckerKeys keys, List<String> keyNames) {
        Map<String, KeyRecords> byKey = new LinkedHashMap<>();
        for (String key : keyNames) {
            List<String> fences = lines(redis.command("LRANGE", keys.fences(key), "0", "-1"));
            long highest = 0;
            long lastWriter = 0;
            long readers = 0;
            long inversions = 0;
            for (String fence : fences) {
                boolean reader = fence.startsWith("r");
                long token = Long.parseLong(reader ? fence.substring(1) : fence);
                if (token <= (reader ? lastWriter : highest)) {
                    inversions++;
                }
                if (reader) {
                    readers++;
                } else {
                    lastWriter = Math.max(lastWriter, token);
                }
                highest = Math.max(highest, token);
            }
            byKey.put(key, new KeyRecords(counts(redis, keys.violationsOf(key)), fences.size(), readers, inversions));
        }
        return new CheckerRecords(
                counts(redis, keys.violations()),
                lines(redis.command("LRANGE", keys.details(), "0", "-1")),
                byKey.values().stream().mapToLong(KeyRecords::sectionsChecked).sum(),
                byKey.values().stream().mapToLong(KeyRecords::readerSections).sum(),
                counter(redis, keys.readersBesideReaders()),
                0,
                0,
                0,
                byKey.values().stream().mapToLong(KeyRecords::fenceInversions).sum(),
                counter(redis, keys.lapses()),
                byKey);
    }

    /**
     * The violations of one kind the checker's scripts counted.
     *
     * @param kind {@code overlap}, {@code taken-early} or {@code fencing}
     * @return how many, over all keys
     */
    public long violation(String kind) {
        return violations.getOrDefault(kind, 0L);
    }

    /**
     * Every violation the checker recorded, its scripts' and the offline fencing check's.
     *
     * @return how many, over all keys
     */
    public long totalViolations() {
        return sum(violations) + fenceInversions;
    }

    static long counter(TestRedis redis, String key) {
        String count = redis.command("GET", key);
        return count == null ? 0 : Long.parseLong(count);
    }

    /** A hash of counts, as the checker's scripts keep them. */
    static Map<String, Long> counts(TestRedis redis, String hash) {
        Map<String, Long> counts = new LinkedHashMap<>();
        List<String> fields = lines(redis.command("HGETALL", hash));
        for (int i = 0; i + 1 < fields.size(); i += 2) {
            counts.put(fields.get(i), Long.parseLong(fields.get(i + 1)));
        }
        return counts;
    }

    private static long sum(Map<String, Long> counts) {
        return counts.values().stream().mapToLong(Long::longValue).sum();
    }

    static List<String> lines(String reply) {
        return reply == null || reply.isEmpty() ? List.of() : Arrays.asList(reply.split("\n"));
    }
}
