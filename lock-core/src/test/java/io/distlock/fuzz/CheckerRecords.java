package io.distlock.fuzz;

import io.distlock.test.TestRedis;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the checker left in Redis after a run, read back by the parent: the violation counts and descriptions written
 * by its scripts, and an offline check that each key's fencing tokens rose strictly in the order sections entered.
 *
 * @param violations counts by kind: overlap, taken-early, fencing
 * @param details the first violations, described
 * @param sectionsChecked critical sections that entered holding their lock, over all keys
 * @param fenceInversions entries of a key's fencing token list not above the entry before them
 * @param claimLapses times a claim had expired while its holder still held the lock
 */
record CheckerRecords(
        Map<String, Long> violations,
        List<String> details,
        long sectionsChecked,
        long fenceInversions,
        long claimLapses) {

    static CheckerRecords read(TestRedis redis, CheckerKeys keys, List<String> keyNames) {
        Map<String, Long> violations = new LinkedHashMap<>();
        List<String> fields = lines(redis.command("HGETALL", keys.violations()));
        for (int i = 0; i + 1 < fields.size(); i += 2) {
            violations.put(fields.get(i), Long.parseLong(fields.get(i + 1)));
        }
        long sections = 0;
        long inversions = 0;
        for (String key : keyNames) {
            List<String> fences = lines(redis.command("LRANGE", keys.fences(key), "0", "-1"));
            sections += fences.size();
            for (int i = 1; i < fences.size(); i++) {
                if (Long.parseLong(fences.get(i)) <= Long.parseLong(fences.get(i - 1))) {
                    inversions++;
                }
            }
        }
        String lapses = redis.command("GET", keys.lapses());
        return new CheckerRecords(
                violations,
                lines(redis.command("LRANGE", keys.details(), "0", "-1")),
                sections,
                inversions,
                lapses == null ? 0 : Long.parseLong(lapses));
    }

    long violation(String kind) {
        return violations.getOrDefault(kind, 0L);
    }

    long totalViolations() {
        return violations.values().stream().mapToLong(Long::longValue).sum() + fenceInversions;
    }

    private static List<String> lines(String reply) {
        return reply == null || reply.isEmpty() ? List.of() : Arrays.asList(reply.split("\n"));
    }
}
