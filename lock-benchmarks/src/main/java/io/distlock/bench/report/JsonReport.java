package io.distlock.bench.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.distlock.bench.BenchmarkResults;
import io.distlock.bench.Environment;
import io.distlock.bench.Measurement;
import io.distlock.bench.ProcessFairness;
import io.distlock.bench.ScenarioResults;
import io.distlock.bench.Spread;
import io.distlock.bench.Trial;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.ToDoubleFunction;
import org.jspecify.annotations.Nullable;

/**
 * Writes the results as JSON beside the Markdown: every figure of every trial, so that the documentation's tables are
 * generated from a run instead of copied from its Markdown by hand.
 */
public final class JsonReport {

    /** The version of this file's layout, raised when a reader of an older file would misread a newer one. */
    public static final int FORMAT = 1;

    private JsonReport() {}

    /**
     * Renders the results.
     *
     * @param results the run's results
     * @param commit the commit the run measured, as {@code git} names it
     * @return the JSON text
     */
    public static String render(BenchmarkResults results, String commit) {
        Environment env = results.environment();
        Map<String, Object> run = new LinkedHashMap<>();
        run.put("format", FORMAT);
        run.put("date", DateTimeFormatter.ISO_INSTANT.format(env.date().truncatedTo(ChronoUnit.SECONDS)));
        run.put("commit", commit);
        run.put("command", RunCommand.of(results.settings(), env.topology()));
        run.put("target", env.topology().id());
        run.put("tookSeconds", results.took().toSeconds());
        run.put("machine", env.machine());
        run.put("load", env.load());
        run.put("java", env.java());
        run.put("redis", env.redisVersion());
        run.put("trials", results.settings().trials());
        run.put("trialSeconds", results.settings().trial().toMillis() / 1000.0);
        run.put("contenders", env.contenders());
        run.put("unavailable", unavailable(results));
        run.put(
                "scenarios",
                results.scenarios().stream().map(JsonReport::scenario).toList());
        run.put("targets", TargetCheck.evaluate(results));
        try {
            return new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(run) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException("the results could not be written as JSON", e);
        }
    }

    private static Map<String, String> unavailable(BenchmarkResults results) {
        Map<String, String> unavailable = new LinkedHashMap<>();
        results.unavailable().forEach((kind, reason) -> unavailable.put(kind.id(), reason));
        return unavailable;
    }

    private static Map<String, Object> scenario(ScenarioResults s) {
        Map<String, Object> scenario = new LinkedHashMap<>();
        scenario.put("number", s.scenario().number());
        scenario.put("title", s.scenario().title());
        scenario.put("held", s.held());
        scenario.put(
                "contenders",
                s.measurements().stream().map(JsonReport::contender).toList());
        return scenario;
    }

    private static Map<String, Object> contender(Measurement m) {
        Map<String, Object> contender = new LinkedHashMap<>();
        contender.put("id", m.kind().id());
        contender.put("label", m.kind().label());
        Map<String, List<@Nullable Double>> trials = new LinkedHashMap<>();
        List<Trial> measured = m.trials();
        trials.put("perSecond", each(measured, trial -> trial.result().perSecond()));
        trials.put("cycleP50Micros", each(measured, t -> t.cycleMicros(50)));
        trials.put("cycleP99Micros", each(measured, t -> t.cycleMicros(99)));
        trials.put("cycleMeanMicros", each(measured, Trial::cycleMeanMicros));
        trials.put("acquireP50Millis", each(measured, t -> t.acquireMillis(50)));
        trials.put("acquireP99Millis", each(measured, t -> t.acquireMillis(99)));
        trials.put("acquireMaxMillis", each(measured, t -> t.acquireMillis(100)));
        trials.put("readP99Millis", each(measured, t -> t.readAcquireMillis(99)));
        trials.put("writeP99Millis", each(measured, t -> t.writeAcquireMillis(99)));
        trials.put("mostReadersInside", each(measured, t -> t.result().mostReadersInside()));
        trials.put("fairness", each(measured, t -> t.result().fairness()));
        trials.put("processP99Ratio", each(measured, ProcessFairness::p99Ratio));
        trials.put("callsPerAcquisition", each(measured, Trial::commandsPerAcquisition));
        trials.put("clientCpuMicros", each(measured, Trial::clientCpuMicrosPerAcquisition));
        trials.put("redisCpuMicros", each(measured, Trial::redisCpuMicrosPerAcquisition));
        trials.put("busMessagesPerAcquisition", each(measured, Trial::busMessagesPerAcquisition));
        contender.put("trials", trials);
        contender.put(
                "processes", m.perProcess().stream().map(JsonReport::process).toList());
        if (m.probe() != null) {
            contender.put("requestsPerAcquisition", finite(m.probe().topLevelPerAcquisition()));
        }
        contender.put("violations", m.violations());
        contender.put("failures", m.failures());
        contender.put("timeouts", m.timeouts());
        return contender;
    }

    private static Map<String, Object> process(ProcessFairness p) {
        Map<String, Object> process = new LinkedHashMap<>();
        process.put("process", p.process());
        process.put("sharePercent", spread(p.sharePercent()));
        process.put("p50Millis", spread(p.p50Millis()));
        process.put("p99Millis", spread(p.p99Millis()));
        process.put("maxMillis", spread(p.maxMillis()));
        return process;
    }

    private static Map<String, @Nullable Double> spread(Spread spread) {
        Map<String, @Nullable Double> values = new LinkedHashMap<>();
        values.put("median", finite(spread.median()));
        values.put("min", finite(spread.min()));
        values.put("max", finite(spread.max()));
        return values;
    }

    /** One figure per trial, in trial order; JSON has no infinity or NaN, so a figure without a value is null. */
    private static List<@Nullable Double> each(List<Trial> trials, ToDoubleFunction<Trial> figure) {
        List<@Nullable Double> values = new ArrayList<>();
        for (Trial trial : trials) {
            values.add(finite(figure.applyAsDouble(trial)));
        }
        return values;
    }

    private static @Nullable Double finite(double value) {
        return Double.isFinite(value) ? value : null;
    }
}
