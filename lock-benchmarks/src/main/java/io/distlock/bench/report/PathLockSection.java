package io.distlock.bench.report;

import io.distlock.bench.Measurement;
import io.distlock.bench.ScenarioResults;
import io.distlock.bench.contender.ContenderKind;
import java.util.ArrayList;
import java.util.List;

/**
 * The table of the path lock scenario: each contender's acquire time by how many locks its tree already holds, and
 * the seed folder lock's over distlock's in paired trials.
 */
final class PathLockSection {

    private PathLockSection() {}

    static void write(MarkdownText md, List<ScenarioResults> rounds) {
        List<ContenderKind> kinds =
                rounds.get(0).measurements().stream().map(Measurement::kind).toList();
        boolean ratio = kinds.contains(ContenderKind.SEED_FOLDER) && kinds.contains(ContenderKind.DISTLOCK_PATH);
        List<String> headers = new ArrayList<>(List.of("Locks held"));
        kinds.forEach(kind -> headers.addAll(List.of(kind.label() + " p50 µs", kind.label() + " p99 µs")));
        if (ratio) {
            headers.addAll(List.of("seed / distlock p50", "seed / distlock p99"));
        }
        md.table(headers);
        for (ScenarioResults round : rounds) {
            List<String> cells = new ArrayList<>(List.of(Numbers.count(round.held())));
            for (Measurement m : round.measurements()) {
                cells.add(Numbers.spread(m.acquireMillis(50), PathLockSection::millisAsMicros));
                cells.add(Numbers.spread(m.acquireMillis(99), PathLockSection::millisAsMicros));
            }
            if (ratio) {
                Measurement seed = round.of(ContenderKind.SEED_FOLDER).orElseThrow();
                Measurement distlock = round.of(ContenderKind.DISTLOCK_PATH).orElseThrow();
                for (double percentile : new double[] {50, 99}) {
                    cells.add(Numbers.spread(
                            PairedRatio.of(seed, distlock, PairedRatio.acquireMicros(percentile)), Numbers::ratio));
                }
            }
            md.row(cells.toArray(String[]::new));
        }
        md.line("");
        List<Measurement> measurements =
                rounds.stream().flatMap(round -> round.measurements().stream()).toList();
        long acquisitions = measurements.stream()
                .flatMap(m -> m.trials().stream())
                .mapToLong(trial -> trial.result().acquisitions())
                .sum();
        md.line("Times are of the acquire call alone, from the call until the lock is held. Each path is released right"
                + " after, untimed, so that the tree holds exactly as many locks throughout; the seed's release"
                + " (`GET`, `HDEL`, `DEL`) does not depend on them. The ratios pair each trial of the seed folder lock"
                + " with distlock's trial of the same number, which ran right next to it: the median pair, with the"
                + " lowest and highest in brackets. Both contenders hold the same paths; the seed folder lock's are"
                + " written into Redis as its acquire script leaves them (owner key with its expiry, hash field with"
                + " the client's clock), since taking them through the script would scan the hash once per lock."
                + " Every round's warm-up, which fills its tree, ran before the first round's trials, so that none"
                + " measured a cold JIT."
                + " No held lock conflicts with a measured path under either lock's rules: of "
                + Numbers.count(acquisitions) + " acquisitions in the trials, "
                + measurements.stream().mapToLong(Measurement::timeouts).sum() + " were refused, and "
                + measurements.stream().mapToLong(Measurement::failures).sum() + " failed in any run.");
        md.line("");
    }

    private static String millisAsMicros(double millis) {
        return Numbers.micros(millis * 1000);
    }
}
