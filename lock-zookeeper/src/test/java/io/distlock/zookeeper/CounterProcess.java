package io.distlock.zookeeper;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.store.StoreLock;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;

/**
 * A separate JVM whose threads increment a counter node by reading it, pausing and writing it back without a version,
 * with or without the lock, until the time is up; it prints {@code DONE <increments> <overlaps>}. An overlap is a
 * thread that found another one's ephemeral "inside" node when it entered. Arguments: connect string, key, counter
 * path, threads, milliseconds to run, "lock" or "none".
 */
public final class CounterProcess {

    private CounterProcess() {}

    public static void main(String[] args) throws Exception {
        String key = args[1];
        String counter = args[2];
        int threadCount = Integer.parseInt(args[3]);
        boolean locked = args[5].equals("lock");
        CuratorFramework client =
                CuratorFrameworkFactory.newClient(args[0], 10_000, 5_000, new ExponentialBackoffRetry(50, 3));
        client.start();
        client.blockUntilConnected();
        long end =
                System.nanoTime() + Duration.ofMillis(Long.parseLong(args[4])).toNanos();
        StoreLock lock = ProcessSupport.lock(args[0], Duration.ofSeconds(10));
        AtomicInteger increments = new AtomicInteger();
        AtomicInteger overlaps = new AtomicInteger();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < threadCount; t++) {
            Thread thread = new Thread(() -> {
                try {
                    while (System.nanoTime() - end < 0) {
                        if (locked) {
                            try (LockHandle held = lock.acquire(key, Lease.fixed(Duration.ofSeconds(30)))) {
                                increment(client, counter, increments, overlaps);
                            }
                        } else {
                            increment(client, counter, increments, overlaps);
                        }
                    }
                } catch (Exception e) {
                    System.out.println("FAILED " + e);
                }
            });
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            thread.join();
        }
        System.out.println("DONE " + increments.get() + " " + overlaps.get());
        System.out.flush();
        lock.close();
        client.close();
    }

    private static void increment(
            CuratorFramework client, String counter, AtomicInteger increments, AtomicInteger overlaps)
            throws Exception {
        String inside = counter + "-inside";
        boolean alone = true;
        try {
            client.create().withMode(CreateMode.EPHEMERAL).forPath(inside);
        } catch (KeeperException.NodeExistsException e) {
            overlaps.incrementAndGet();
            alone = false;
        }
        long value = Long.parseLong(new String(client.getData().forPath(counter), StandardCharsets.UTF_8));
        Thread.sleep(2);
        client.setData().forPath(counter, Long.toString(value + 1).getBytes(StandardCharsets.UTF_8));
        increments.incrementAndGet();
        if (alone) {
            client.delete().forPath(inside);
        }
    }
}
