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
 * Runs one fuzz run from the parent: opens the run's {@link Witness} on a ledger of its own, hands the run to worker
 * JVMs of the {@link WorkerPool}, starts them hammering together once all are ready, lets a {@link Disruption} act on
 * the servers meanwhile, waits for the workers' summaries and reads back the ledger's records. The witness is closed in
 * every case; a worker goes back to the pool only if it ended its run with status 0, and is killed otherwise.
 */
final class FuzzRun {

    /**
     * From handing a run to the workers until each is ready: worker JVMs that the pool lacks start in parallel on a
     * busy machine, and every worker builds and warms up the run's lock; this is long enough for the slowest.
     */
    private static final Duration START_UP = Duration.ofSeconds(90);

    /**
     * Beyond the run and the workers' own grace for finishing sections, time to print, close the lock and see the
     * run's threads end (which a worker waits up to 10 s for).
     */
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
        RunLedger ledger = RunLedger.of(mix);
        long started = System.nanoTime();
        List<WorkerProcess> workers = WorkerPool.take(settings.processes());
        List<WorkerProcess> servedWell = new ArrayList<>();
        try (Witness witness = Witness.start(ledger)) {
            long readyBy = System.nanoTime() + START_UP.toNanos();
            for (int process = 0; process < settings.processes(); process++) {
                workers.get(process)
                        .begin(new WorkerConfig(
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
                                settings.seedOf(process)));
            }
            for (WorkerProcess worker : workers) {
                if (!worker.awaitReady(readyBy)) {
                    throw new IllegalStateException("a fuzz worker ended or was not ready within " + START_UP
                            + "; last output: " + worker.tail());
                }
            }
            witness.go();
            long goNanos = System.nanoTime();
            long endBy = goNanos
                    + TimeUnit.SECONDS.toNanos(settings.seconds())
                    + FuzzWorker.GRACE.toNanos()
                    + EXIT_SLACK.toNanos();
            disruption.during(
                    new RunInProgress(ledger, lockPrefix, keyNames, Duration.ofSeconds(settings.seconds()), goNanos));
            List<Integer> statuses = new ArrayList<>();
            List<Totals> totals = new ArrayList<>();
            List<String> notable = new ArrayList<>();
            for (int process = 0; process < workers.size(); process++) {
                WorkerProcess worker = workers.get(process);
                int status = worker.awaitEnd(endBy);
                statuses.add(status);
                if (status != 0) {
                    notable.add("worker " + process + " ended its run with status " + status + "; last output: "
                            + worker.tail());
                }
                totals.add(Totals.parse(worker.summary()));
                notable.addAll(worker.notable(process));
                if (status == 0) {
                    servedWell.add(worker);
                }
            }
            long endedNanos = System.nanoTime();
            return new FuzzReport(
                    lock,
                    ran,
                    placement,
                    Duration.ofNanos(goNanos - started),
                    Duration.ofNanos(endedNanos - goNanos - TimeUnit.SECONDS.toNanos(settings.seconds())),
                    Totals.sum(totals),
                    ledger.records(keyNames),
                    notable,
                    statuses);
        } finally {
            for (WorkerProcess worker : workers) {
                if (servedWell.contains(worker)) {
                    WorkerPool.giveBack(worker);
                } else {
                    WorkerPool.discard(worker);
                }
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
