package io.distlock.store;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The threads that every {@link StoreLock} of this JVM shares: one clock thread that only schedules (it never waits for
 * a store, so a slow store cannot delay a lease's deadline), and worker threads, started on demand and let go when
 * idle, that make the store calls of renewals and asynchronous releases and run lost-lock callbacks.
 */
final class StoreThreads {

    private static final ScheduledThreadPoolExecutor CLOCK = newClock();
    private static final ExecutorService WORK = new ThreadPoolExecutor(
            0, Integer.MAX_VALUE, 30, TimeUnit.SECONDS, new SynchronousQueue<>(), daemons("distlock-store-work-"));

    private StoreThreads() {}

    static ScheduledThreadPoolExecutor clock() {
        return CLOCK;
    }

    static ExecutorService work() {
        return WORK;
    }

    private static ScheduledThreadPoolExecutor newClock() {
        ScheduledThreadPoolExecutor clock = new ScheduledThreadPoolExecutor(1, daemons("distlock-store-clock-"));
        clock.setRemoveOnCancelPolicy(true);
        return clock;
    }

    private static ThreadFactory daemons(String prefix) {
        AtomicInteger count = new AtomicInteger();
        return task -> {
            Thread thread = new Thread(task, prefix + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
