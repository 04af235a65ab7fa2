package io.distlock.test.fuzz;

import io.distlock.test.TestRedis;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the {@link PathChecker} left in Redis after a path run, read back by the parent as {@link CheckerRecords}, with
 * an offline check of the fencing tokens in Java: in the order sections entered, each token must be above every token
 * that entered the same path, an ancestor or a descendant before it. The paths are compared by {@link
 * PathTree#conflicts}, apart from the scripts' own comparison.
 */
final class PathRecords {

    private PathRecords() {}

    static CheckerRecords read(TestRedis redis, CheckerKeys keys) {
        List<String> entries =
                CheckerRecords.lines(redis.command("LRANGE", keys.pathEntries(PathTree.NAME), "0", "-1"));
        long inversions = fenceInversions(entries);
        Map<String, CheckerRecords.KeyRecords> byTree = new LinkedHashMap<>();
        byTree.put(
                PathTree.NAME,
                new CheckerRecords.KeyRecords(
                        CheckerRecords.counts(redis, keys.violationsOf(PathTree.NAME)), entries.size(), 0, inversions));
        return new CheckerRecords(
                CheckerRecords.counts(redis, keys.violations()),
                CheckerRecords.lines(redis.command("LRANGE", keys.details(), "0", "-1")),
                entries.size(),
                0,
                0,
                CheckerRecords.counter(redis, keys.besideInTree()),
                CheckerRecords.counter(redis, keys.refusedByRelatives()),
                CheckerRecords.counter(redis, keys.refusedByNoSection()),
                inversions,
                CheckerRecords.counter(redis, keys.lapses()),
                byTree);
    }

    /**
     * Entries ({@code token path}, in the order they entered) whose token is not above the highest token that entered a
     * conflicting path before them. O(entries x paths), which is small for a test.
     */
    static long fenceInversions(List<String> entries) {
        Map<String, Long> highestByPath = new LinkedHashMap<>();
        long inversions = 0;
        for (String entry : entries) {
            int space = entry.indexOf(' ');
            long token = Long.parseLong(entry.substring(0, space));
            String path = entry.substring(space + 1);
            for (Map.Entry<String, Long> earlier : highestByPath.entrySet()) {
                if (earlier.getValue() >= token && PathTree.conflicts(path, earlier.getKey())) {
                    inversions++;
                    break;
                }
            }
            highestByPath.merge(path, token, Math::max);
        }
        return inversions;
    }
}
