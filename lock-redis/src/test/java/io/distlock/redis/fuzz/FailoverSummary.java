package io.distlock.redis.fuzz;

import io.distlock.tck.fuzz.CheckerRecords;
import io.distlock.tck.fuzz.Count;
import io.distlock.tck.fuzz.FuzzReport;
import io.distlock.tck.fuzz.Totals;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** The course of a fuzz run with a master failover and what it cost, in Markdown, to quote beside its report. */
final class FailoverSummary {

    private FailoverSummary() {}

    static String table(MasterFailover.Timeline timeline, FuzzReport report) {
        Totals totals = report.totals();
        long sectionsOnFailedKeys = 0;
        long overlap = 0;
        long takenEarly = 0;
        long fencing = 0;
        long inversions = 0;
        long elsewhere = 0;
        for (Map.Entry<String, CheckerRecords.KeyRecords> entry :
                report.records().byKey().entrySet()) {
            CheckerRecords.KeyRecords records = entry.getValue();
            if (timeline.failedKeys().contains(entry.getKey())) {
                sectionsOnFailedKeys += records.sectionsChecked();
                overlap += records.violations().getOrDefault("overlap", 0L);
                takenEarly += records.violations().getOrDefault("taken-early", 0L);
                fencing += records.violations().getOrDefault("fencing", 0L);
                inversions += records.fenceInversions();
            } else {
                elsewhere += records.totalViolations();
            }
        }
        List<String> rows = new ArrayList<>();
        rows.add("### Master failover during the fuzz");
        rows.add("");
        rows.add("| measure | value |");
        rows.add("|---|---:|");
        row(
                rows,
                "master killed (SIGKILL) / replica promoted",
                ":" + timeline.masterPort() + " / :" + timeline.replicaPort());
        row(rows, "keys the killed master served", String.join(", ", timeline.failedKeys()));
        row(
                rows,
                "replication cut before the kill (sections on the master alone meanwhile)",
                timeline.replicationCut() ? "yes (" + timeline.unreplicatedSections() + ")" : "no");
        row(rows, "kill, into the run", seconds(timeline.killedAt()));
        row(rows, "replica promoted, cluster healthy, after the kill", seconds(after(timeline, timeline.promotedAt())));
        row(
                rows,
                "first section on those keys after the promotion, after the kill",
                timeline.recoveredAt().map(at -> seconds(after(timeline, at))).orElse("none before the run ended"));
        row(
                rows,
                "sections on those keys: before the kill / kill to promotion / after promotion",
                timeline.sectionsBeforeKill() + " / "
                        + (timeline.sectionsAtPromotion() - timeline.sectionsBeforeKill()) + " / "
                        + (sectionsOnFailedKeys - timeline.sectionsAtPromotion()));
        row(rows, "violations before the kill", Long.toString(timeline.violationsBeforeKill()));
        row(
                rows,
                "**violations on those keys**: overlap / taken early / fencing online / fencing offline",
                "**" + overlap + " / " + takenEarly + " / " + fencing + " / " + inversions + "**");
        row(rows, "violations on the other keys", Long.toString(elsewhere));
        row(
                rows,
                "lost sections, holder told: in the section / between exit and release (renewed leases among them)",
                totals.get(Count.LOST_DETECTED) + " / " + totals.get(Count.LOST_AFTER_SECTION) + " ("
                        + totals.get(Count.RENEWED_LOST) + ")");
        row(rows, "lost sections, holder not told", Long.toString(totals.get(Count.UNDETECTED_LOSS)));
        row(rows, "lock calls failed with LockBackendException", Long.toString(totals.get(Count.BACKEND_ERRORS)));
        row(
                rows,
                "checker's lock key reads that waited for the promotion / sections left unchecked",
                totals.get(Count.LOCK_READ_WAITED) + " / " + totals.get(Count.LOCK_UNREADABLE));
        return String.join(System.lineSeparator(), rows);
    }

    private static Duration after(MasterFailover.Timeline timeline, Duration at) {
        return at.minus(timeline.killedAt());
    }

    private static void row(List<String> rows, String label, String value) {
        rows.add("| " + label + " | " + value + " |");
    }

    private static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
    }
}
