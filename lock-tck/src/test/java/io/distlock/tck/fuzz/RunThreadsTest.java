package io.distlock.tck.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/** What a worker counts as threads its run left behind: every thread the run started but those that end by themselves. */
class RunThreadsTest {

    @Test
    void threadsThatRunOnOrWaitForWorkForeverAreLeftBehindButEndedAndKeepAliveIdleOnesAreNot() throws Exception {
        CountDownLatch never = new CountDownLatch(1);
        CountDownLatch finish = new CountDownLatch(1);
        RunThreads run = RunThreads.beforeTheRun();
        Thread blocked = started("blocked-for-good", never);
        Thread ending = started("ending-soon", finish);
        ExecutorService fixed = Executors.newFixedThreadPool(1);
        ThreadPoolExecutor keepAlive = new ThreadPoolExecutor(0, 1, 60, TimeUnit.SECONDS, new SynchronousQueue<>());
        try {
            Thread fixedThread = threadOf(fixed);
            Thread keepAliveThread = threadOf(keepAlive);
            finish.countDown();

            List<Thread> left = run.leftBehind();

            assertThat(left)
                    .as("threads left behind")
                    .contains(blocked, fixedThread)
                    .doesNotContain(ending, keepAliveThread);
            assertThat(RunThreads.describe(blocked)).contains("blocked-for-good", "CountDownLatch.await");
        } finally {
            never.countDown();
            fixed.shutdownNow();
            keepAlive.shutdownNow();
        }
    }

    private static Thread started(String name, CountDownLatch until) {
        Thread thread = new Thread(
                () -> {
                    try {
                        until.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                },
                name);
        thread.setDaemon(true);
        thread.start();
        return thread;
    }

    /** The thread the pool ran a task on, which then waits for the next. */
    private static Thread threadOf(ExecutorService pool) throws Exception {
        AtomicReference<Thread> thread = new AtomicReference<>();
        pool.submit(() -> thread.set(Thread.currentThread())).get(10, TimeUnit.SECONDS);
        return thread.get();
    }
}
