package io.distlock.redis;

import io.distlock.leader.LeaderElection;
import io.distlock.leader.Leadership;
import io.distlock.leader.LeadershipListener;
import io.distlock.leader.Revocation;
import java.io.OutputStream;
import java.time.Duration;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * A separate JVM that takes part in a group's election, says "LEADER" and the term's fencing token on stdout when it
 * leads, and runs until it is killed. Arguments: Redis port, group, watchdog lease in ms.
 */
public final class LeaderProcess {

    static final String LEADER = "LEADER";

    private LeaderProcess() {}

    public static void main(String[] args) throws Exception {
        LettuceConnectionFactory factory =
                new LettuceConnectionFactory(new RedisStandaloneConfiguration("127.0.0.1", Integer.parseInt(args[0])));
        factory.afterPropertiesSet();
        factory.start();
        RedisLock lock = RedisLock.builder(factory)
                .watchdogLease(Duration.ofMillis(Long.parseLong(args[2])))
                .build();
        LeaderElection.builder(lock, args[1])
                .listener(new LeadershipListener() {
                    @Override
                    public void granted(Leadership term) {
                        System.out.println(LEADER + " " + term.fencingToken());
                        System.out.flush();
                    }

                    @Override
                    public void revoked(Leadership term, Revocation reason) {
                        System.out.println("REVOKED " + reason);
                        System.out.flush();
                    }
                })
                .build()
                .start();
        // Only a test JVM that died without killing this one ends its input.
        System.in.transferTo(OutputStream.nullOutputStream());
        System.exit(0);
    }
}
