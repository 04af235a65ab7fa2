package io.distlock.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.tck.process.ChildJvm;
import io.distlock.test.redis.TestRedis;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The fair lock across real processes: arrival order over 3 JVMs, and a waiter JVM killed in the queue. */
@Timeout(value = 10, unit = TimeUnit.MINUTES) // above the waiter JVMs' generous start-up wait, ChildJvm.LINE_WAIT
class FairLockProcessesTest {

    private static final Lease LONG = Lease.fixed(Duration.ofMinutes(2));

    /**
     * How long a ready waiter JVM, connected and subscribed, may take to queue a waiter: seconds beside a full parallel
     * build, far below the holder's lease.
     */
    private static final Duration QUEUEING = Duration.ofSeconds(25);

    private final RedisClients clients = new RedisClients(TestRedis.shared());
    private final String key = "fair-processes:" + UUID.randomUUID();
    private final List<ChildJvm> processes = new ArrayList<>();

    @AfterEach
    void stop() throws Exception {
        processes.forEach(ChildJvm::close);
        clients.close();
    }

    @Test
    void waitersOfThreeProcessesAreServedInTheOrderTheyArrived() throws Exception {
        List<ChildJvm> jvms = startWaiterProcesses(3);
        // Taken once the waiter JVMs are ready: their start-up, however slow, does not eat into the lease.
        LockHandle holder = clients.lock().fair().tryAcquire(key, LONG).orElseThrow();
        List<String> arrivals = List.of("A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3", "C3");
        for (int i = 0; i < arrivals.size(); i++) {
            jvms.get(i % 3).send(arrivals.get(i));
            int queued = i + 1;
            await().atMost(QUEUEING).until(() -> queueLength() == queued);
        }

        holder.release();

        await().atMost(Duration.ofSeconds(20)).until(() -> served().size() == arrivals.size());
        assertThat(served()).containsExactlyElementsOf(arrivals);
    }

    @Test
    void aWaiterProcessKilledInTheMiddleOfTheQueueHoldsUpTheLineForAtMostTheHeartbeatTimeout() throws Exception {
        List<ChildJvm> jvms = startWaiterProcesses(3);
        // Taken once the waiter JVMs are ready: their start-up, however slow, does not eat into the lease.
        LockHandle holder = clients.lock().fair().tryAcquire(key, LONG).orElseThrow();
        List<String> arrivals = List.of("A", "B", "C");
        for (int i = 0; i < arrivals.size(); i++) {
            jvms.get(i).send(arrivals.get(i));
            int queued = i + 1;
            await().atMost(QUEUEING).until(() -> queueLength() == queued);
        }

        jvms.get(1).kill();
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

    /** Starts waiter JVMs and waits until each is connected and reads the labels to queue. */
    private List<ChildJvm> startWaiterProcesses(int count) throws InterruptedException {
        List<ChildJvm> started = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            ChildJvm waiters = ChildJvm.start(
                    FairWaiterProcess.class, Integer.toString(TestRedis.shared().port()), key);
            processes.add(waiters);
            started.add(waiters);
        }
        for (ChildJvm waiters : started) {
            waiters.awaitLine(FairWaiterProcess.READY);
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
}
