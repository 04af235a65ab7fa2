package io.distlock.redis.internal.engine;

import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.SynchronousQueue;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The threads that asynchronous acquisitions run on: they complete the caller's stages, so the caller's dependent code
 * never runs on a thread of the Redis client (where blocking would stall every connection), and one timer thread ends
 * waits. Both pools start their threads on demand and let idle ones go, so a lock that nobody acquires asynchronously
 * keeps no thread, and nothing has to be shut down: work handed over while the lock closes still runs.
 */
public final class AsyncThreads implements Executor {

    private static final long IDLE_SECONDS = 60;

    private static final AsyncThreads SHARED = new AsyncThreads("distlock-async");

    private final ThreadPoolExecutor completions;
    private final ScheduledThreadPoolExecutor timers;

    /** The threads every lock of this JVM shares: they come and go with the work, so one set is enough. */
    public static AsyncThreads shared() {
        return SHARED;
    }

    private AsyncThreads(String name) {
        this.completions = new ThreadPoolExecutor(
                0, Integer.MAX_VALUE, IDLE_SECONDS, TimeUnit.SECONDS, new SynchronousQueue<>(), daemons(name));
        this.timers = new ScheduledThreadPoolExecutor(1, daemons(name + "-timer"));
        this.timers.setKeepAliveTime(IDLE_SECONDS, TimeUnit.SECONDS);
        this.timers.allowCoreThreadTimeOut(true);
        this.timers.setRemoveOnCancelPolicy(true);
    }

    /** Runs a step of an acquisition, or completes its stage, on a thread of the pool. */
    @Override
    public void execute(Runnable work) {
        completions.execute(work);
    }

    /** Runs {@code work} on the pool after {@code nanos}, unless the returned future is cancelled first. */
    Future<?> schedule(Runnable work, long nanos) {
        return timers.schedule(work, nanos, TimeUnit.NANOSECONDS);
    }

    private static ThreadFactory daemons(String name) {
        AtomicLong count = new AtomicLong();
        return work -> {
            Thread thread = new Thread(work, name + "-" + count.incrementAndGet());
            thread.setDaemon(true);
            return thread;
        };
    }
}
