package io.distlock.redis;

import io.distlock.Lease;
import io.distlock.LockHandle;
import java.time.Duration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A separate JVM that takes a lock, says so on stdout and then holds it until it is killed. Arguments: Redis port,
 * key, watchdog lease in ms, and "renewed" or a fixed lease in ms; with a fifth, the name of a tree, the key is a path
 * in that tree.
 */
public final class LockHolderProcess {

    private LockHolderProcess() {}

    public static void main(String[] args) throws Exception {
        int port = Integer.parseInt(args[0]);
        String key = args[1];
        Duration watchdogLease = Duration.ofMillis(Long.parseLong(args[2]));
        Lease lease =
                args[3].equals("renewed") ? Lease.renewed() : Lease.fixed(Duration.ofMillis(Long.parseLong(args[3])));
        LettuceConnectionFactory factory =
                new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", port));
        factory.afterPropertiesSet();
        factory.start();
        RedisLock lock = RedisLock.builder(factory).watchdogLease(watchdogLease).build();
        LockHandle held = args.length > 4 ? lock.tree(args[4]).acquire(key, lease) : lock.acquire(key, lease);
        System.out.println("HELD " + held.fencingToken());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
