package io.distlock.bench.firstcall;

import io.distlock.bench.firstcall.FirstCallMain.FirstCall;
import io.distlock.bench.report.Numbers;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.function.ToLongFunction;

/** Writes the first-call measurement as Markdown: medians per deployment and way, then every application. */
final class FirstCallReport {

    private FirstCallReport() {}

    static String markdown(
            Instant date,
            String commit,
            String machine,
            String loadAtStart,
            int applications,
            Map<Deployment, Map<Way, List<FirstCall>>> results) {
        StringBuilder out = new StringBuilder();
        out.append("# First call against the hundredth\n\n")
                .append("Run on ")
                .append(DateTimeFormatter.ISO_LOCAL_DATE.format(date.atZone(ZoneOffset.UTC)))
                .append(" at commit ")
                .append(commit)
                .append(", on ")
                .append(machine)
                .append(" (load average at the start ")
                .append(loadAtStart)
                .append(").\n\n")
                .append("Each application is started in a fresh JVM (Spring Boot, distlock's Redis starter, one"
                        + " `@DistributedLock(key = \"'stock:' + #sku\")` method); once it is ready, it calls the"
                        + " method ")
                .append(FirstCallApplication.CALLS)
                .append(" times back to back on one SKU, then ")
                .append(FirstCallApplication.PAUSED_CALLS)
                .append(" times more, each after a pause of ")
                .append(FirstCallApplication.PAUSE_MILLIS)
                .append(" ms. *First* is the first call; *back to back* the median of calls ")
                .append(FirstCallApplication.STEADY_FROM + 1)
                .append(" to ")
                .append(FirstCallApplication.CALLS)
                .append("; *after a pause* the median of the calls made after a pause, which, like the first call,"
                        + " find the machine's threads asleep. ")
                .append(applications)
                .append(" applications per deployment and way, the ways taking turns; the table shows medians over"
                        + " the applications, the ratios the median of each application's own ratio.\n\n")
                .append("| deployment | calls | first call | back to back | after a pause | first / back to back |"
                        + " first / after a pause |\n")
                .append("|---|---|---:|---:|---:|---:|---:|\n");
        results.forEach((deployment, byWay) -> byWay.forEach((way, calls) -> {
            long first = median(calls, FirstCall::firstNanos);
            long steady = median(calls, FirstCall::steadyNanos);
            long paused = median(calls, FirstCall::pausedNanos);
            out.append("| ")
                    .append(deployment.label())
                    .append(" | ")
                    .append(way.label())
                    .append(" | ")
                    .append(Numbers.millis(first / 1e6))
                    .append(" ms | ")
                    .append(Numbers.micros(steady / 1e3))
                    .append(" µs | ")
                    .append(Numbers.micros(paused / 1e3))
                    .append(" µs | ")
                    .append(Numbers.ratio(medianRatio(calls, FirstCall::steadyNanos)))
                    .append(" | ")
                    .append(Numbers.ratio(medianRatio(calls, FirstCall::pausedNanos)))
                    .append(" |\n");
        }));
        out.append("\nEvery application, first call / back to back / after a pause:\n\n");
        results.forEach((deployment, byWay) -> byWay.forEach((way, calls) -> {
            out.append("- ")
                    .append(deployment.label())
                    .append(", ")
                    .append(way.label())
                    .append(":");
            calls.forEach(call -> out.append(' ')
                    .append(Numbers.millis(call.firstNanos() / 1e6))
                    .append(" ms / ")
                    .append(Numbers.micros(call.steadyNanos() / 1e3))
                    .append(" µs / ")
                    .append(Numbers.micros(call.pausedNanos() / 1e3))
                    .append(" µs;"));
            out.setLength(out.length() - 1);
            out.append('\n');
        }));
        return out.toString();
    }

    /** The median over the applications of each one's first call divided by its {@code other} figure. */
    private static double medianRatio(List<FirstCall> calls, ToLongFunction<FirstCall> other) {
        double[] ratios = calls.stream()
                .mapToDouble(call -> (double) call.firstNanos() / other.applyAsLong(call))
                .sorted()
                .toArray();
        return ratios[ratios.length / 2];
    }

    private static long median(List<FirstCall> calls, ToLongFunction<FirstCall> figure) {
        long[] values = calls.stream().mapToLong(figure).sorted().toArray();
        return values[values.length / 2];
    }
}
