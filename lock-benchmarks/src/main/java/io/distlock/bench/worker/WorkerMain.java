package io.distlock.bench.worker;

import io.distlock.bench.contender.Contender;
import io.distlock.bench.contender.ContenderKind;
import io.distlock.bench.contender.LettuceFactories;
import io.distlock.bench.contender.RedisEndpoint;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.UUID;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A worker process: one contender, connected once, running the workloads its parent sends until told to exit. Every
 * contender runs in processes of its own, so no contender's threads, connections or JIT profile affect another's.
 *
 * <p>Arguments: the contender's id and the Redis URI.
 */
public final class WorkerMain {

    private static final int SELF_CHECK_ACQUISITIONS = 20;
    private static final Duration SELF_CHECK_LEASE = Duration.ofSeconds(10);
    /** Many JVMs boot at once, so the first acquisition, which also connects and loads scripts, may be slow. */
    private static final Duration SELF_CHECK_WAIT = Duration.ofMinutes(1);

    private WorkerMain() {}

    /**
     * Runs the worker.
     *
     * @param args the contender's id and the Redis URI
     */
    public static void main(String[] args) {
        PrintStream answers = System.out;
        // Libraries that print to standard output must not garble the answers.
        System.setOut(System.err);
        int status = 0;
        try {
            serve(ContenderKind.byId(args[0]), RedisEndpoint.parse(args[1]), answers);
        } catch (Throwable failure) {
            failure.printStackTrace();
            answers.println(WorkerProtocol.ERROR + WireFields.text(failure.toString()));
            status = 1;
        }
        answers.flush();
        // Client libraries leave non-daemon threads behind; the parent waits for this process to end.
        System.exit(status);
    }

    /**
     * Takes and releases a few keys before reporting ready: a contender that cannot lock fails here, and the first
     * acquisitions' class loading and script loading happen while the other workers start, not in the first warm-up.
     */
    private static void selfCheck(Contender contender) throws InterruptedException {
        for (int i = 0; i < SELF_CHECK_ACQUISITIONS; i++) {
            Contender.Release release =
                    contender.tryAcquire("bench-self-check:" + UUID.randomUUID(), SELF_CHECK_LEASE, SELF_CHECK_WAIT);
            if (release == null) {
                throw new IllegalStateException("could not take a fresh key that nobody else holds");
            }
            release.release();
        }
    }

    private static void serve(ContenderKind kind, RedisEndpoint endpoint, PrintStream answers) throws Exception {
        LettuceConnectionFactory checkConnection = LettuceFactories.start(endpoint);
        try (Contender contender = kind.create(endpoint)) {
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
            checkConnection.destroy();
        }
    }
}
