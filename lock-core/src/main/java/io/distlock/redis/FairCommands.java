package io.distlock.redis;

import io.distlock.redis.LockCommands.Ownership;
import java.util.List;

/** The commands of the {@linkplain FairLock fair lock} on one Redis: one script of {@link FairScripts} each. */
final class FairCommands {

    private final ScriptRunner runner;
    private final String releaseChannel;

    FairCommands(ScriptRunner runner, String releaseChannel) {
        this.runner = runner;
        this.releaseChannel = releaseChannel;
    }

    long answerTimeoutNanos() {
        return runner.answerTimeoutNanos();
    }

    /** Takes the lock if free and nobody waits ahead, or (when {@code queue}) queues the ticket or keeps its place. */
    ScriptRunner.Call<Answer> acquire(
            String key,
            String lockKey,
            String ticket,
            String token,
            long leaseMillis,
            long timeoutMillis,
            boolean queue) {
        return runner.run(
                key,
                "acquire",
                FairScripts.ACQUIRE,
                keys(lockKey),
                List.of(
                        releaseChannel,
                        ticket,
                        token,
                        Long.toString(leaseMillis),
                        Long.toString(timeoutMillis),
                        queue ? "1" : "0"),
                value -> {
                    List<?> answer = (List<?>) value;
                    return new Answer(number(answer.get(0)), number(answer.get(1)), number(answer.get(2)));
                });
    }

    /** Releases the lock held by {@code token}, handing it to the first waiter in the queue if there is one. */
    ScriptRunner.Call<Ownership> release(String key, String lockKey, String token) {
        return runner.run(
                key,
                "release",
                FairScripts.RELEASE,
                keys(lockKey),
                List.of(releaseChannel, token),
                value -> Ownership.of(number(value)));
    }

    /** Takes a ticket out of the queue, and releases the lock if it was handed to {@code token} meanwhile. */
    ScriptRunner.Call<Long> leave(String key, String lockKey, String ticket, String token) {
        return runner.run(
                key,
                "stop waiting for",
                FairScripts.LEAVE,
                keys(lockKey),
                List.of(releaseChannel, ticket, token),
                FairCommands::number);
    }

    private static List<String> keys(String lockKey) {
        return List.of(
                lockKey,
                RedisKeys.fenceKey(lockKey),
                lockKey + ":queue",
                lockKey + ":waiters",
                lockKey + ":deadlines",
                lockKey + ":arrivals");
    }

    private static long number(Object value) {
        return ((Number) value).longValue();
    }

    /**
     * What {@link FairScripts#ACQUIRE} answered.
     *
     * @param fencingToken the fencing token if the token holds the lock, else 0
     * @param millis the lease set if held, else the holder's PTTL
     * @param serverMillis Redis's time when the script ran, in ms
     */
    record Answer(long fencingToken, long millis, long serverMillis) {

        boolean granted() {
            return fencingToken > 0;
        }
    }
}
