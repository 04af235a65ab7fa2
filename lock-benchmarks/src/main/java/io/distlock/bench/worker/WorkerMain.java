package io.distlock.bench.worker;

import io.distlock.bench.contender.Contender;
import io.distlock.bench.contender.ContenderKind;
import io.distlock.bench.contender.ContenderTarget;
import io.distlock.bench.contender.LettuceFactories;
import io.distlock.bench.contender.RedisNodes;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.UUID;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A worker process: one contender, connected once, running the workloads its parent sends until told to exit. Every
 * contender runs in processes of its own, so no contender's threads, connections or JIT profile affect another's.
 *
 * <p>Arguments: the contender's id, then what it locks on as {@link ContenderTarget#arguments()} writes it: for a
 * contender of another backend that backend's address and pool size, then the topology ({@code standalone}, {@code
 * cluster} or {@code independent}) and one Redis URI per node, as {@link RedisNodes#arguments()} writes them.
 */
public final class WorkerMain {

    private static final int SELF_CHECK_ACQUISITIONS = 20;
    private static final Duration SELF_CHECK_LEASE = Duration.ofSeconds(10);
    /** Many JVMs boot at once, so the first acquisition, which also connects and loads scripts, may be slow. */
    private static final Duration SELF_CHECK_WAIT = Duration.ofMinutes(1);

    private static final long FIRST_ACQUISITION_RETRY_MILLIS = 500;

    private WorkerMain() {}

    /**
     * Runs the worker.
     *
     * @param args the contender's id, then its target as {@link ContenderTarget#arguments()} writes it
     */
    public static void main(String[] args) {
        PrintStream answers = System.out;
        // Libraries that print to standard output must not garble the answers.
        System.setOut(System.err);
        int status = 0;
        try {
            ContenderKind kind = ContenderKind.byId(args[0]);
            serve(kind, ContenderTarget.fromArguments(kind, Arrays.asList(args).subList(1, args.length)), answers);
        } catch (Throwable failure) {
            failure.printStackTrace();
            answers.println(WorkerProtocol.ERROR + WireFields.text(describe(failure)));
            status = 1;
        }
        answers.flush();
        // Client libraries leave non-daemon threads behind; the parent waits for this process to end.
        System.exit(status);
    }

    /**
     * The failure with its causes, since a client library's own exception often wraps what Redis said (such as a
     * {@code CROSSSLOT} error) in a generic one.
     */
    private static String describe(Throwable failure) {
        StringBuilder text = new StringBuilder(failure.toString());
        for (Throwable cause = failure.getCause(); cause != null; cause = cause.getCause()) {
            text.append("; caused by ").append(cause);
        }
        return text.toString();
    }

    /**
     * Takes and releases a few keys before reporting ready: a contender that cannot lock fails here, and the first
     * acquisitions' class loading and script loading happen while the other workers start, not in the first warm-up.
     */
    private static void selfCheck(Contender contender) throws InterruptedException {
        firstAcquisition(contender).release();
        for (int i = 1; i < SELF_CHECK_ACQUISITIONS; i++) {
            Contender.Release release =
                    contender.tryAcquire("bench-self-check:" + UUID.randomUUID(), SELF_CHECK_LEASE, SELF_CHECK_WAIT);
            if (release == null) {
                throw new IllegalStateException("could not take a fresh key that nobody else holds");
            }
            release.release();
        }
    }

    /**
     * The first acquisition, tried again while it fails within {@link #SELF_CHECK_WAIT}: a client may give up on its
     * first answer sooner than that (distlock after its command plus connect timeout) while all workers boot at once on
     * a small machine. A contender that cannot lock at all still fails, with its last error, once the wait is over.
     */
    private static Contender.Release firstAcquisition(Contender contender) throws InterruptedException {
        long deadline = System.nanoTime() + SELF_CHECK_WAIT.toNanos();
        while (true) {
            try {
                Contender.Release release = contender.tryAcquire(
                        "bench-self-check:" + UUID.randomUUID(), SELF_CHECK_LEASE, SELF_CHECK_WAIT);
                if (release == null) {
                    throw new IllegalStateException("could not take a fresh key that nobody else holds");
                }
                return release;
            } catch (RuntimeException e) {
                if (System.nanoTime() - deadline >= 0) {
                    throw e;
                }
                System.err.println("First acquisition failed, trying again until the self-check's wait is over: " + e);
                Thread.sleep(FIRST_ACQUISITION_RETRY_MILLIS);
            }
        }
    }

    private static void serve(ContenderKind kind, ContenderTarget target, PrintStream answers) throws Exception {
        LettuceConnectionFactory checkConnection =
                LettuceFactories.start(target.redis().sharedState());
        try (Contender contender = kind.create(target)) {
            WorkloadRunner runner =
                    new WorkloadRunner(contender, new StringRedisTemplate(checkConnection).opsForValue());
            selfCheck(contender);
            answers.println(WorkerProtocol.READY);
            answers.flush();
            BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String command;
            while ((command = commands.readLine()) != null && !command.equals(WorkerProtocol.EXIT)) {
                if (!command.startsWith(WorkerProtocol.RUN)) {
                    throw new IllegalArgumentException("unknown command: " + command);
                }
                WorkloadResult result = runner.run(Workload.decode(command.substring(WorkerProtocol.RUN.length())));
                answers.println(WorkerProtocol.RESULT + result.encode());
                answers.flush();
            }
        } finally {
            LettuceFactories.destroy(checkConnection);
        }
    }
}
