package io.distlock.bench.firstcall;

import io.distlock.bench.Commit;
import io.distlock.bench.Environment;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Measures the first annotated call of freshly started applications against their hundredth, on each Redis
 * deployment, with distlock's start-up preparation off and on, and a plain template {@code GET} for reference ({@link
 * Way}), and writes {@code first-call/results.md}.
 *
 * <p>System properties: {@code bench.firstCall.deployments} (any of {@code standalone,cluster,sentinel}, by default
 * all), {@code bench.firstCall.applications} (applications per deployment and setting, by default 7) and {@code
 * bench.output} (the folder written to, by default {@code target/benchmark-results}). The ways take turns, the one
 * started first rotating, so that a machine getting busier or quieter favours none.
 */
public final class FirstCallMain {

    private FirstCallMain() {}

    /**
     * Runs the measurement.
     *
     * @param args none
     * @throws Exception if a server or an application fails
     */
    public static void main(String[] args) throws Exception {
        List<Deployment> deployments = Arrays.stream(
                        System.getProperty("bench.firstCall.deployments", "standalone,cluster,sentinel")
                                .split(","))
                .map(Deployment::byId)
                .toList();
        int applications = Integer.getInteger("bench.firstCall.applications", 7);
        Path output = Path.of(System.getProperty("bench.output", "target/benchmark-results"), "first-call");
        System.out.println(Files.readString(run(deployments, applications, output)));
    }

    /**
     * Starts the deployments' servers one after the other, measures {@code applications} fresh applications per way on
     * each, and writes the report.
     *
     * @param deployments the Redis deployments to measure on
     * @param applications how many applications per deployment and way
     * @param output the folder to write the report and the applications' logs to
     * @return the report, {@code results.md} in {@code output}
     * @throws Exception if a server or an application fails
     */
    static Path run(List<Deployment> deployments, int applications, Path output) throws Exception {
        Files.createDirectories(output);
        Instant date = Instant.now();
        String loadAtStart = Environment.loadAverage();
        Map<Deployment, Map<Way, List<FirstCall>>> results = new LinkedHashMap<>();
        for (Deployment deployment : deployments) {
            try (DeploymentServers servers = DeploymentServers.start(deployment)) {
                Map<Way, List<FirstCall>> byWay = new EnumMap<>(Way.class);
                List<Way> ways = new ArrayList<>(List.of(Way.values()));
                for (int round = 0; round < applications; round++) {
                    for (Way way : ways) {
                        Path log =
                                output.resolve(String.format(Locale.ROOT, "%s-%s-%d.log", deployment.id(), way, round));
                        FirstCall call = FirstCall.run(servers.properties(), way, log);
                        System.out.printf(
                                Locale.ROOT,
                                "%s, %s: first %.2f ms, steady %.0f us, after a pause %.0f us%n",
                                deployment.id(),
                                way,
                                call.firstNanos() / 1e6,
                                call.steadyNanos() / 1e3,
                                call.pausedNanos() / 1e3);
                        byWay.computeIfAbsent(way, any -> new ArrayList<>()).add(call);
                    }
                    Collections.rotate(ways, 1);
                }
                results.put(deployment, byWay);
            }
        }
        String report = FirstCallReport.markdown(
                date, Commit.current(), Environment.describeThisMachine(), loadAtStart, applications, results);
        Path written = output.resolve("results.md");
        Files.writeString(written, report);
        return written;
    }

    /**
     * One application's measurement.
     *
     * @param firstNanos what its first call took
     * @param steadyNanos the median of its calls 100 and later, made back to back
     * @param pausedNanos the median of its calls made after a pause each
     */
    record FirstCall(long firstNanos, long steadyNanos, long pausedNanos) {

        static FirstCall run(List<String> properties, Way way, Path log) throws IOException, InterruptedException {
            List<String> command = new ArrayList<>(List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Xmx256m",
                    "-cp",
                    System.getProperty("java.class.path"),
                    FirstCallApplication.class.getName(),
                    "--logging.level.root=WARN"));
            command.addAll(way.arguments());
            command.addAll(properties);
            Process process = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            if (!process.waitFor(5, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IllegalStateException("the application did not end within 5 minutes; see " + log);
            }
            return Files.readAllLines(log).stream()
                    .filter(line -> line.startsWith(FirstCallApplication.RESULT))
                    .findFirst()
                    .map(line -> {
                        String[] words = line.split(" ");
                        return new FirstCall(
                                Long.parseLong(words[1]), Long.parseLong(words[3]), Long.parseLong(words[5]));
                    })
                    .orElseThrow(() -> new IllegalStateException(
                            "the application printed no result (exit " + process.exitValue() + "); see " + log));
        }
    }
}
