package io.distlock.redis.fuzz;

import static org.awaitility.Awaitility.await;

import io.distlock.tck.fuzz.HolderRead;
import io.distlock.tck.fuzz.LockView;
import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.awaitility.core.ConditionTimeoutException;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The locks live on a Redis Cluster, the checker's records with its witness, which no fault touches. Before each
 * judgement the lock key is read from the master that serves its slot, through a cluster-aware client of the checker's
 * own: its value, and when its lease ends as that master's clock tells it ({@code TIME} plus {@code PTTL}, in one
 * script). The witness then sees the key as a {@code GET} and {@code PTTL} would see it at that moment, by its own
 * clock: the same one, since the test starts every server on one host.
 *
 * <p>The read comes at least a round trip before the judgement, not in the same atomic step. So the judgement takes
 * the holder as read, and the lease as what is left of it by now, by the shared clock. A claim then never outlives the
 * lease it was read from (leases only grow), so a claim alive at the judgement was alive at the read, and an overlap or
 * early takeover the checker reports did happen. If the section's own lease as read has run out, or nearly, by the
 * time of the judgement, the key may have been renewed or taken since and the read tells nothing: the witness answers
 * that it is stale and the checker reads again. What this costs is sight of a violation that begins and ends within
 * the round trip between a read and its judgement.
 */
final class ClusterLockView implements LockView {

    /** KEYS: the lock key. Returns its value and its lease's end in ms since the epoch (-1: none), or nothing. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static final RedisScript<List<String>> READ = new DefaultRedisScript("""
            local holder = redis.call('get', KEYS[1])
            if not holder then
              return {}
            end
            local ttl = redis.call('pttl', KEYS[1])
            if ttl < 0 then
              return {holder, '-1'}
            end
            local now = redis.call('time')
            local now_ms = tonumber(now[1]) * 1000 + math.floor(tonumber(now[2]) / 1000)
            return {holder, string.format('%.0f', now_ms + ttl)}
            """, List.class);

    /**
     * How long the checker keeps reading a lock key whose master does not answer: well past a failover, so that a
     * section inside when its master died is judged by what the promoted replica has, and yet within the workers'
     * grace after a run.
     */
    private static final Duration PATIENCE = Duration.ofSeconds(20);

    private static final Duration RETRY_INTERVAL = Duration.ofMillis(50);

    private final StringRedisTemplate cluster;
    private final LockView.Counts counts;

    /** Reads lock keys through {@code cluster}, counting in {@code counts} the reads that had to wait. */
    ClusterLockView(StringRedisTemplate cluster, LockView.Counts counts) {
        this.cluster = cluster;
        this.counts = counts;
    }

    /**
     * Reads the lock key, and while its master does not answer, reads again until it does: the section waits inside,
     * its claim alive for as long as its lease, so that whoever takes the lock meanwhile is caught overlapping it.
     */
    @Override
    public HolderRead read(String lockKey, String ownerToken) {
        try {
            return read(lockKey);
        } catch (DataAccessException first) {
            counts.readWaited();
            try {
                return await().atMost(PATIENCE)
                        .pollDelay(Duration.ZERO)
                        .pollInterval(RETRY_INTERVAL)
                        .pollInSameThread()
                        .ignoreExceptionsInstanceOf(DataAccessException.class)
                        .until(() -> read(lockKey), Objects::nonNull);
            } catch (ConditionTimeoutException e) {
                throw new Unreadable(lockKey, first);
            }
        }
    }

    private HolderRead read(String lockKey) {
        List<String> read = cluster.execute(READ, List.of(lockKey));
        if (read == null || read.isEmpty()) {
            return HolderRead.none();
        }
        long leaseEnd = Long.parseLong(read.get(1));
        return leaseEnd < 0 ? HolderRead.forGood(read.get(0)) : HolderRead.until(read.get(0), leaseEnd);
    }
}
