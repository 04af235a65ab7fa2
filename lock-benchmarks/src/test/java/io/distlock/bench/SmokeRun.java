package io.distlock.bench;

import io.distlock.bench.redis.RedisTarget;
import java.time.LocalTime;

/** A smoke test's benchmark run against a throwaway server, with its progress printed for the test's log. */
final class SmokeRun {

    private SmokeRun() {}

    static BenchmarkResults run(BenchmarkSettings settings) throws InterruptedException {
        try (RedisTarget target = RedisTarget.open(null)) {
            return new BenchmarkRun(settings, target, line -> System.out.println(LocalTime.now() + " " + line)).run();
        }
    }
}
