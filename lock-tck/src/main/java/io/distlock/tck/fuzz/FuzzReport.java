package io.distlock.tck.fuzz;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The outcome of a fuzz run and its summary table, in Markdown so it can be pasted into the reliability notes.
 *
 * @param lock the lock that was driven
 * @param settings the run's size and seed
 * @param placement where the locks were
 * @param startUp from handing the run to the worker JVMs (starting those that no earlier run left) until all were
 *     ready to go
 * @param windDown from the end of the hammering time until the last worker ended its run
 * @param totals the workers' counts
 * @param records what the checker's witness recorded
 * @param notable violation, error and hang lines the workers printed, and the last output of workers that failed
 * @param exitStatuses the statuses the workers ended their runs with, 0 if well ({@link FuzzWorker})
 */
public record FuzzReport(
        FuzzLock lock,
        FuzzSettings settings,
        LockPlacement placement,
        Duration startUp,
        Duration windDown,
        Totals totals,
        CheckerRecords records,
        List<String> notable,
        List<Integer> exitStatuses) {

    /**
     * Every kind of violation: the checker's, the offline fencing check's, and those the workers judged.
     *
     * @return how many violations the run found
     */
    public long violations() {
        return records.totalViolations() + totals.get(Count.UNDETECTED_LOSS) + totals.get(Count.REENTRY_FAILED);
    }

    /**
     * Errors that make the run inconclusive: the checker's records may be incomplete or a worker misbehaved.
     *
     * @return how many such errors the run had
     */
    public long errors() {
        return totals.get(Count.CHECKER_ERRORS)
                + totals.get(Count.UNEXPECTED_ERRORS)
                + totals.get(Count.HUNG_THREADS)
                + exitStatuses.stream().filter(status -> status != 0).count();
    }

    /**
     * The violation descriptions and worker lines, for an assertion message.
     *
     * @return the evidence, one item a line
     */
    public String evidence() {
        List<String> lines = new ArrayList<>(records.details());
        lines.addAll(notable);
        return lines.isEmpty() ? "(none recorded)" : String.join(System.lineSeparator(), lines);
    }

    /**
     * The run's summary table, in Markdown.
     *
     * @return the table
     */
    public String table() {
        long acquisitions = totals.acquisitions();
        List<String> rows = new ArrayList<>();
        rows.add("### Mutual exclusion fuzz: " + lock.label());
        rows.add("");
        rows.add("| measure | value |");
        rows.add("|---|---:|");
        row(rows, "locks on", placement.description());
        if (settings.asyncHolders()) {
            row(
                    rows,
                    "processes x acquisitions in flight (asynchronous holders, no thread waiting)",
                    settings.processes() + " x " + settings.threads());
        } else {
            row(rows, "processes x threads", settings.processes() + " x " + settings.threads());
        }
        row(
                rows,
                lock.mix().paths()
                        ? "paths of one tree (depth up to " + PathTree.MAX_DEPTH + ") shared by all threads"
                        : "lock keys shared by all threads",
                number(settings.keys()));
        row(
                rows,
                "wall clock: workers getting ready + hammering + wind-down",
                seconds(startUp) + " + " + settings.seconds() + " s + " + seconds(windDown));
        row(rows, "seed (`-Dfuzz.seed`)", Long.toString(settings.seed()));
        row(
                rows,
                "**acquisitions**",
                "**" + number(acquisitions) + "** (" + number(acquisitions / settings.seconds()) + "/s)");
        for (Operation operation : Operation.forHolders(settings.asyncHolders())) {
            row(
                    rows,
                    "&nbsp;&nbsp;" + operation.label(),
                    number(totals.get(operation))
                            + (lock.mix().readWrite() ? " (" + number(totals.reads(operation)) + " by readers)" : ""));
        }
        for (LeaseProfile profile : LeaseProfile.values()) {
            row(rows, "&nbsp;&nbsp;lease " + profile.label(), number(totals.get(profile)));
        }
        row(rows, "critical sections checked (entered holding the lock)", number(records.sectionsChecked()));
        if (lock.mix().readWrite()) {
            row(
                    rows,
                    "&nbsp;&nbsp;readers (a reader overlaps only a writer; its fencing token must pass the last"
                            + " writer's)",
                    number(records.readerSections()));
            row(
                    rows,
                    "&nbsp;&nbsp;readers that entered while another reader was inside",
                    number(records.readersBesideReaders()));
        }
        if (lock.mix().paths()) {
            row(
                    rows,
                    "&nbsp;&nbsp;entered while others were inside paths of the tree apart from theirs",
                    number(records.besideInTree()));
        }
        row(rows, "not acquired (busy for the whole wait)", number(totals.get(Count.NOT_ACQUIRED)));
        if (lock.mix().paths()) {
            row(
                    rows,
                    "&nbsp;&nbsp;while only an ancestor or descendant of the path was inside (conflicts refused)",
                    number(records.refusedByRelatives()));
            row(
                    rows,
                    "&nbsp;&nbsp;while no section was inside the path, an ancestor or a descendant (holds in flight, or"
                            + " held by no section)",
                    number(records.refusedByNoSection()));
        }
        row(rows, "lost and detected (lease ran out in the section; holder told)", lost());
        row(
                rows,
                "lost between section exit and release (release said so)",
                number(totals.get(Count.LOST_AFTER_SECTION)));
        row(rows, "renewed holds kept across 4+ renewals", number(totals.get(Count.RENEWED_HELD_KEPT)));
        row(rows, "renewed leases lost (renewal too late; holder told)", number(totals.get(Count.RENEWED_LOST)));
        row(rows, "claim lapses (checker blind while the lock was still held)", number(records.claimLapses()));
        row(
                rows,
                "LockBackendException (no answer in time; the operation was skipped)",
                number(totals.get(Count.BACKEND_ERRORS)));
        if (totals.get(Count.LOCK_READ_WAITED) + totals.get(Count.LOCK_UNREADABLE) > 0) {
            row(
                    rows,
                    "checker's lock key reads repeated until the store (a master's successor) answered / given up",
                    number(totals.get(Count.LOCK_READ_WAITED)) + " / " + number(totals.get(Count.LOCK_UNREADABLE)));
        }
        if (totals.get(Count.NODE_READ_FAILED) > 0) {
            row(
                    rows,
                    "checker's lock key reads a Redlock node did not answer (counted for any holder)",
                    number(totals.get(Count.NODE_READ_FAILED)));
        }
        row(
                rows,
                "checker errors / unexpected errors / hung threads",
                totals.get(Count.CHECKER_ERRORS) + " / " + totals.get(Count.UNEXPECTED_ERRORS) + " / "
                        + totals.get(Count.HUNG_THREADS));
        row(rows, "**violations**", "**" + number(violations()) + "**");
        row(
                rows,
                lock.mix().paths()
                        ? "&nbsp;&nbsp;overlap: entered while a holder of the path, an ancestor or a descendant had"
                                + " lease left"
                        : "&nbsp;&nbsp;overlap: entered while another holder's lease was alive",
                number(records.violation("overlap")));
        row(
                rows,
                "&nbsp;&nbsp;lock deleted or taken over before its lease ended",
                number(records.violation("taken-early")));
        row(
                rows,
                "&nbsp;&nbsp;fencing token not increasing (online / offline list check)",
                records.violation("fencing") + " / " + records.fenceInversions());
        row(rows, "&nbsp;&nbsp;lease ran out but release returned normally", number(totals.get(Count.UNDETECTED_LOSS)));
        row(
                rows,
                "&nbsp;&nbsp;re-entry refused or with another fencing token",
                number(totals.get(Count.REENTRY_FAILED)));
        return String.join(System.lineSeparator(), rows);
    }

    /**
     * The checker's records key by key, with the server that held each key's lock when the run began, in Markdown.
     *
     * @return the table
     */
    public String keyTable() {
        Map<String, String> servedBy = placement.servedBy();
        List<String> rows = new ArrayList<>();
        rows.add("| key | served by | sections checked | overlap | taken early | fencing (online / offline) |");
        rows.add("|---|---|---:|---:|---:|---:|");
        records.byKey()
                .forEach((key, byKey) -> rows.add("| " + key + " | " + servedBy.getOrDefault(key, "?") + " | "
                        + number(byKey.sectionsChecked()) + " | "
                        + number(byKey.violations().getOrDefault("overlap", 0L))
                        + " | " + number(byKey.violations().getOrDefault("taken-early", 0L)) + " | "
                        + number(byKey.violations().getOrDefault("fencing", 0L)) + " / "
                        + number(byKey.fenceInversions())
                        + " |"));
        return String.join(System.lineSeparator(), rows);
    }

    private String lost() {
        long detected = totals.get(Count.LOST_DETECTED);
        long beforeEntry = totals.get(Count.LOST_BEFORE_ENTRY);
        long notYetSeen = totals.get(Count.LOSS_NOT_YET_SEEN_BY_IS_LOST);
        long atGrant = totals.get(Count.LOST_AT_GRANT);
        return number(detected) + " (" + number(beforeEntry) + " before entering; " + number(notYetSeen)
                + " with isLost() still false at the end); " + number(atGrant)
                + " granted after their lease ran out, whose work did not start";
    }

    private static void row(List<String> rows, String label, String value) {
        rows.add("| " + label + " | " + value + " |");
    }

    private static String seconds(Duration duration) {
        return String.format(Locale.ROOT, "%.1f s", duration.toMillis() / 1000.0);
    }

    private static String number(long value) {
        return String.format(Locale.ROOT, "%,d", value);
    }
}
