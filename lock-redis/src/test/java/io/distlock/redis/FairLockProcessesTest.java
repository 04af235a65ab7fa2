package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.test.redis.TestRedis;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The fair lock across real processes: arrival order over 3 JVMs, and a waiter JVM killed in the queue. */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class FairLockProcessesTest {

    private static final Lease LONG = Lease.fixed(Duration.ofMinutes(2));

    /**
     * How long a waiter JVM may take to queue its first waiter, which also connects to Redis: seconds beside a full
     * parallel build, far below the holder's lease.
     */
    private static final Duration QUEUEING = Duration.ofSeconds(25);

    private final RedisClients clients = new RedisClients(TestRedis.shared());
    private final String key = "fair-processes:" + UUID.randomUUID();
    private final List<Process> processes = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        for (Process process : processes) {
            process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        clients.close();
    }

    @Test
    void waitersOfThreeProcessesAreServedInTheOrderTheyArrived() throws Exception {
        LockHandle holder = clients.lock().fair().tryAcquire(key, LONG).orElseThrow();
        List<Waiters> jvms = startWaiterProcesses(3);
        List<String> arrivals = List.of("A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3");
        for (int i = 0; i < arrivals.size(); i++) {
            jvms.get(i % 3).queue(arrivals.get(i));
            int queued = i + 1;
            await().atMost(QUEUEING).until(() -> queueLength() == queued);
        }

        holder.release();

        await().atMost(Duration.ofSeconds(20)).until(() -> served().size() == arrivals.size());
        assertThat(served()).containsExactlyElementsOf(arrivals);
    }

    @Test
    void aWaiterProcessKilledInTheMiddleOfTheQueueHoldsUpTheLineForAtMostTheHeartbeatTimeout() throws Exception {
        LockHandle holder = clients.lock().fair().tryAcquire(key, LONG).orElseThrow();
        List<Waiters> jvms = startWaiterProcesses(3);
        List<String> arrivals = List.of("A", "B", "C");
        for (int i = 0; i < arrivals.size(); i++) {
            jvms.get(i).queue(arrivals.get(i));
            int queued = i + 1;
            await().atMost(QUEUEING).until(() -> queueLength() == queued);
        }

        jvms.get(1).process().destroyForcibly();
        assertThat(jvms.get(1).process().waitFor(10, TimeUnit.SECONDS)).isTrue();
        long released = System.nanoTime();
        holder.release();
        await().atMost(Duration.ofSeconds(20)).until(() -> served().contains("C"));
        Duration untilNext = Duration.ofNanos(System.nanoTime() - released);

        System.out.printf(
                "A waiter JVM SIGKILLed in the middle of the queue: the one behind it was served %d ms after the"
                        + " release (the one ahead of it held the lock for 20 ms)%n",
                untilNext.toMillis());
        assertThat(served()).containsExactly("A", "C");
        // Without the heartbeat, C would never be served: the dead waiter's ticket would stay ahead of it. The margin
        // over the timeout is for a loaded machine, where the waiter JVMs may each wait seconds for a core.
        assertThat(untilNext).isLessThan(Duration.ofMillis(FairLock.HEARTBEAT_TIMEOUT_MILLIS + 5000));
    }

    private List<Waiters> startWaiterProcesses(int count) throws Exception {
        List<Waiters> started = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String java =
                    Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process process = new ProcessBuilder(List.of(
                            java,
                            "-cp",
                            System.getProperty("java.class.path"),
                            FairWaiterProcess.class.getName(),
                            Integer.toString(TestRedis.shared().port()),
                            key))
                    .redirectErrorStream(true)
                    .start();
            processes.add(process);
            started.add(new Waiters(process));
        }
        for (Waiters waiters : started) {
            waiters.awaitReady();
        }
        return started;
    }

    private long queueLength() {
        return Long.parseLong(TestRedis.shared().command("ZCARD", "{distlock:" + key + "}:queue"));
    }

    private List<String> served() {
        String list = TestRedis.shared().command("LRANGE", "served:" + key, "0", "-1");
        return list.isEmpty() ? List.of() : Arrays.asList(list.split("\n"));
    }

    /** A waiter JVM: queues a waiter for every label it is sent. */
    private record Waiters(Process process) {

        void awaitReady() throws Exception {
            BufferedReader output =
                    new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            CompletableFuture<Boolean> ready = CompletableFuture.supplyAsync(() -> {
                try {
                    String line;
                    while ((line = output.readLine()) != null) {
                        if (line.equals("READY")) {
                            return true;
                        }
                    }
                    return false;
                } catch (IOException e) {
                    return false;
                }
            });
            assertThat(ready.get(30, TimeUnit.SECONDS)).as("waiter JVM ready").isTrue();
        }

        void queue(String label) throws IOException {
            Writer input = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            input.write(label + "\n");
            input.flush();
        }
    }
}
