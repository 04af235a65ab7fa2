package io.distlock.redis.fuzz;

import io.distlock.tck.fuzz.FuzzSettings;
import io.distlock.tck.fuzz.MutualExclusionFuzz;
import io.distlock.test.redis.TestRedis;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The controls of {@link MutualExclusionFuzzTest}: the same workers and checker drive deliberately broken locks on one
 * Redis, and the checker must catch each of them, so that the zero violations of the real locks mean something. The
 * broken locks are {@link NaiveLock} (a release without comparing the owner, the seeds' release in separate commands,
 * and a local handover that never looks at the lease), readers that never look at the writers, and paths taken as plain keys, blind to their ancestors and
 * descendants. A class of its own so that the build runs it beside the real locks' runs.
 */
class BrokenLocksFuzzTest {

    private static TestRedis redis;

    @BeforeAll
    static void startRedis() {
        redis = TestRedis.start();
    }

    @AfterAll
    static void stopRedis() {
        if (redis != null) {
            redis.close();
        }
    }

    @ParameterizedTest
    @EnumSource(
            names = {
                "RELEASE_WITHOUT_COMPARE",
                "NON_ATOMIC_RELEASE",
                "READERS_APART_FROM_WRITERS",
                "PATH_EXACT_ONLY",
                "SEMAPHORE_ONE_TOO_MANY",
                "LOCAL_HANDOVER_PAST_LEASE"
            })
    void theCheckerCatchesABrokenLock(LockKind kind) {
        assertCaught(kind, FuzzSettings.control());
    }

    @Test
    void theCheckerCatchesABrokenLockTakenByAsyncHolders() {
        assertCaught(LockKind.RELEASE_WITHOUT_COMPARE, FuzzSettings.control().withAsyncHolders());
    }

    private static void assertCaught(LockKind kind, FuzzSettings settings) {
        MutualExclusionFuzz.runCaught(RedisFuzzServers.oneRedis(redis), kind.lock(), settings);
    }
}
