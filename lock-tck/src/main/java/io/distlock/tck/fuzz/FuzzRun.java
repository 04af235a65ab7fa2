package io.distlock.tck.fuzz;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

/**
 * Runs one fuzz run from the parent: opens the run's {@link Witness} on a ledger of its own, starts the worker JVMs,
 * starts them hammering together once all are ready, lets a {@link Disruption} act on the servers meanwhile, waits for
 * the workers' summaries and reads back the ledger's records. Workers are killed and the witness closed in every case.
 */
final class FuzzRun {

    /** Worker JVMs start in parallel on a busy machine; this is long enough for the slowest. */
    private static final Duration START_UP = Duration.ofSeconds(90);

    /** Beyond the run and the workers' own grace for finishing sections, time to print and exit. */
    private static final Duration EXIT_SLACK = Duration.ofSeconds(30);

    private FuzzRun() {}

    /** The longest a run of these settings takes before its waits give up. */
    static Duration budget(FuzzSettings settings) {
        return START_UP.plusSeconds(settings.seconds())
                .plus(FuzzWorker.GRACE)
                .plus(EXIT_SLACK)
                .plusSeconds(30);
    }

    static FuzzReport run(FuzzServers servers, FuzzLock lock, FuzzSettings settings, Disruption disruption)
            throws InterruptedException {
        String namespace = "fuzz:" + lock.variant().toLowerCase(Locale.ROOT) + ":" + UUID.randomUUID() + ":";
        String lockPrefix = WorkerConfig.lockPrefix(namespace);
        SectionMix mix = lock.mix();
        // A path run's lock keys are the paths of its tree, as many as the tree drew; all its processes share them.
        List<String> keyNames =
                mix.paths() ? PathTree.random(settings.seed()).paths() : servers.keyNames(lockPrefix, settings.keys());
        FuzzSettings ran = mix.paths() ? settings.withKeys(keyNames.size()) : settings;
        LockPlacement placement = placement(servers, lockPrefix, keyNames);
        List<WorkerProcess> workers = new ArrayList<>();
        RunLedger ledger = RunLedger.of(mix);
        long started = System.nanoTime();
        try (Witness witness = Witness.start(ledger)) {
            for (int process = 0; process < settings.processes(); process++) {
                workers.add(WorkerProcess.start(new WorkerConfig(
                        witness.port(),
                        lock.factory().getName(),
                        servers.lockAddress(),
                        lock.variant(),
                        lock.options(),
                        mix,
                        namespace,
                        process,
                        settings.threads(),
                        settings.asyncHolders(),
                        keyNames,
                        settings.seconds(),
                        settings.seedOf(process))));
            }
            long readyBy = started + START_UP.toNanos();
            for (WorkerProcess worker : workers) {
                if (!worker.awaitReady(readyBy)) {
                    throw new IllegalStateException("a fuzz worker ended or was not ready within " + START_UP
                            + "; last output: " + worker.tail());
                }
            }
            witness.go();
            long goNanos = System.nanoTime();
            long exitBy = goNanos
                    + TimeUnit.SECONDS.toNanos(settings.seconds())
                    + FuzzWorker.GRACE.toNanos()
                    + EXIT_SLACK.toNanos();
            disruption.during(
                    new RunInProgress(ledger, lockPrefix, keyNames, Duration.ofSeconds(settings.seconds()), goNanos));
            List<Integer> statuses = new ArrayList<>();
            List<Totals> totals = new ArrayList<>();
            List<String> notable = new ArrayList<>();
            for (WorkerProcess worker : workers) {
                int status = worker.awaitExit(exitBy);
                statuses.add(status);
                if (status != 0) {
                    notable.add("worker exited with status " + status + "; last output: " + worker.tail());
                }
                totals.add(Totals.parse(worker.summary()));
                notable.addAll(worker.notable());
            }
            long exitedNanos = System.nanoTime();
            return new FuzzReport(
                    lock,
                    ran,
                    placement,
                    Duration.ofNanos(goNanos - started),
                    Duration.ofNanos(exitedNanos - goNanos - TimeUnit.SECONDS.toNanos(settings.seconds())),
                    Totals.sum(totals),
                    ledger.records(keyNames),
                    notable,
                    statuses);
        } finally {
            for (WorkerProcess worker : workers) {
                worker.close();
            }
        }
    }

    /** Where the locks of a run are now, for its report. */
    private static LockPlacement placement(FuzzServers servers, String lockPrefix, List<String> keyNames) {
        Map<String, String> servedBy = new LinkedHashMap<>();
        for (String name : keyNames) {
            servedBy.put(name, servers.servedBy(lockPrefix, name));
        }
        return new LockPlacement(servers.description(), servedBy);
    }
}
