package io.distlock.redis.internal.fair;

import io.distlock.redis.internal.engine.LockCommands;
import io.distlock.redis.internal.engine.LockCommands.Ownership;
import io.distlock.redis.internal.scripts.OwnerTokens;
import io.distlock.redis.internal.scripts.RedisKeys;
import io.distlock.redis.internal.scripts.ReleaseChannels;
import io.distlock.redis.internal.scripts.ScriptCall;
import io.distlock.redis.internal.scripts.ScriptRunner;
import java.util.List;
import java.util.function.Consumer;

/**
 * The commands of the {@linkplain io.distlock.redis.FairLock fair lock} on one Redis: one script of {@link FairScripts}
 * each. A release that hands the key to a waiter of this instance tells that waiter as soon as Redis answers, without
 * waiting for the announcement to come back through the subscription.
 */
public final class FairCommands {

    private final ScriptRunner runner;
    private final ReleaseChannels channels;

    private final String instanceId;
    private final String instanceName;
    private final String counterKeep;
    private final Consumer<String> freed;
    private final FairHandovers handovers = new FairHandovers();

    /**
     * @param instanceName the name the lock's value names as its holder while one of this instance's waiters holds it
     * @param counterKeep how long a key's fencing counter outlives its latest grant, in ms, as the scripts' last ARGV
     *     ({@link io.distlock.redis.internal.scripts.FenceFunctions}); {@code "0"} keeps it
     * @param freed told of each lock key a release or leave of this instance freed without handing it to a queued
     *     waiter, so that this instance's waiters that do not queue (plain and read acquisitions) look again
     */
    public FairCommands(
            ScriptRunner runner,
            ReleaseChannels channels,
            String instanceId,
            String instanceName,
            String counterKeep,
            Consumer<String> freed) {
        this.runner = runner;
        this.channels = channels;
        this.instanceId = instanceId;
        this.instanceName = instanceName;
        this.counterKeep = counterKeep;
        this.freed = freed;
    }

    /** Where this instance's waiters hear of handovers. */
    public FairHandovers handovers() {
        return handovers;
    }

    /** A new ticket: this instance's id, a dot, and a random part. */
    public String newTicket() {
        return instanceId + "." + OwnerTokens.newToken();
    }

    public long answerTimeoutNanos() {
        return runner.answerTimeoutNanos();
    }

    /** Takes the lock if free and nobody waits ahead, or (when {@code queue}) queues the ticket or keeps its place. */
    public ScriptCall<Answer> acquire(
            String key,
            String lockKey,
            String ticket,
            String token,
            long leaseMillis,
            long timeoutMillis,
            boolean queue) {
        ReleaseChannels.Route route = channels.route(lockKey);
        return runner.run(
                key,
                "acquire",
                route.script(FairScripts.ACQUIRE, FairScripts.ACQUIRE_SHARDED),
                keys(lockKey),
                List.of(
                        handoverChannels(route),
                        instanceId,
                        ticket,
                        token,
                        Long.toString(leaseMillis),
                        Long.toString(timeoutMillis),
                        queue ? "1" : "0",
                        instanceName,
                        counterKeep),
                value -> {
                    List<?> answer = (List<?>) value;
                    return new Answer(number(answer.get(0)), number(answer.get(1)), number(answer.get(2)));
                });
    }

    /** Releases the lock held by {@code token}, handing it to the first waiter in the queue if there is one. */
    public ScriptCall<Ownership> release(String key, String lockKey, String token) {
        ReleaseChannels.Route route = channels.route(lockKey);
        return runner.run(
                key,
                "release",
                route.script(FairScripts.RELEASE, FairScripts.RELEASE_SHARDED),
                keys(lockKey),
                List.of(handoverChannels(route), instanceId, token, counterKeep),
                value -> Ownership.of(number(handedOver(lockKey, value))));
    }

    /** Takes a ticket out of the queue, and releases the lock if it was handed to {@code token} meanwhile. */
    public ScriptCall<Long> leave(String key, String lockKey, String ticket, String token) {
        ReleaseChannels.Route route = channels.route(lockKey);
        return runner.run(
                key,
                "stop waiting for",
                route.script(FairScripts.LEAVE, FairScripts.LEAVE_SHARDED),
                keys(lockKey),
                List.of(handoverChannels(route), instanceId, ticket, token, counterKeep),
                value -> number(handedOver(lockKey, value)));
    }

    /**
     * Tells a waiter of this instance that a release or leave handed it the key: the script's answer is its own
     * outcome followed by the handover, {@code ticket, fencing token, server time, lease ms}, or an empty ticket; a
     * key released (outcome 1) and handed to nobody is free for the waiters that do not queue.
     *
     * @return the script's own outcome
     */
    private Object handedOver(String lockKey, Object value) {
        List<?> answer = (List<?>) value;
        String ticket = LockCommands.text(answer.get(1));
        if (!ticket.isEmpty()) {
            handovers.deliver(
                    ticket,
                    new FairHandovers.Notice(number(answer.get(2)), number(answer.get(3)), number(answer.get(4))));
        } else if (number(answer.get(0)) == 1) {
            freed.accept(lockKey);
        }
        return answer.get(0);
    }

    /** The prefix of every instance's handover channel on the route, which the scripts take as ARGV[1]. */
    private static String handoverChannels(ReleaseChannels.Route route) {
        return ReleaseChannels.handoverChannel(route.channel(), "");
    }

    private static List<String> keys(String lockKey) {
        return List.of(
                lockKey, RedisKeys.fenceKey(lockKey), lockKey + ":queue", lockKey + ":waiters", lockKey + ":arrivals");
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
    public record Answer(long fencingToken, long millis, long serverMillis) {

        public boolean granted() {
            return fencingToken > 0;
        }
    }
}
