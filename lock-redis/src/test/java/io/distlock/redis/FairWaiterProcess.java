package io.distlock.redis;

import io.distlock.Lease;
import io.distlock.LockHandle;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.core.StringRedisTemplate;

/**
 * A separate JVM with waiters of the fair lock. Arguments: Redis port, key. It says READY on stdout, then starts a
 * waiting thread for every label it reads on stdin; a waiter that gets the lock appends its label to the Redis list
 * {@code served:<key>} while it holds the lock, holds it for 20 ms and releases it.
 */
public final class FairWaiterProcess {

    static final String READY = "READY";

    private FairWaiterProcess() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String key = args[1];
        LettuceConnectionFactory factory =
                new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
        factory.afterPropertiesSet();
        factory.start();
        StringRedisTemplate redis = new StringRedisTemplate(factory);
        redis.afterPropertiesSet();
        FairLock lock = RedisLock.builder(factory).build().fair();
        // Connects everything, and subscribes, before the first waiter queues.
        lock.tryAcquire("warm-up:" + key, Lease.fixed(Duration.ofSeconds(5))).ifPresent(LockHandle::release);
        System.out.println(READY);
        System.out.flush();
        BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String label;
        while ((label = commands.readLine()) != null) {
            String waiter = label.trim();
            new Thread(() -> serve(lock, redis, key, waiter), "waiter-" + waiter).start();
        }
    }

    private static void serve(FairLock lock, StringRedisTemplate redis, String key, String label) {
        try (LockHandle held = lock.acquire(key, Lease.fixed(Duration.ofSeconds(30)))) {
            redis.opsForList().rightPush("served:" + key, label);
            Thread.sleep(20);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
