package io.distlock.zookeeper;

import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The store's own daemon threads: one that reports lost leases, and one, started when needed, that removes the queue
 * nodes of acquisitions given up on. Both keep Curator's event thread free of work that waits.
 */
final class StoreThreads {

    private final ExecutorService events = Executors.newSingleThreadExecutor(daemon("distlock-zookeeper-events"));
    private final ExecutorService cleanup = new ThreadPoolExecutor(
            0, 1, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(), daemon("distlock-zookeeper-cleanup"));

    /**
     * Where queue nodes left by acquisitions given up on are removed, one at a time, off Curator's event thread and
     * off the thread that reports lost leases: each removal may wait for ZooKeeper.
     */
    Executor cleanup() {
        return cleanup;
    }

    /** Runs a lost-lease callback on the events thread, or on the caller's once the store is closed. */
    void report(Runnable gone) {
        try {
            events.execute(gone);
        } catch (RejectedExecutionException e) {
            gone.run();
        }
    }

    /** Lets the work already queued finish, and takes no more. */
    void shutdown() {
        events.shutdown();
        cleanup.shutdown();
    }

    private static ThreadFactory daemon(String name) {
        return task -> {
            Thread thread = new Thread(task, name);
            thread.setDaemon(true);
            return thread;
        };
    }
}
