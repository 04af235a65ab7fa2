package io.distlock.redis.fuzz;

import io.distlock.tck.fuzz.HolderRead;
import io.distlock.tck.fuzz.LockView;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jspecify.annotations.Nullable;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The locks live on the independent masters of a Redlock, the checker's records with its witness. A lock is held, as
 * the checker judges it, by whoever a majority of the nodes names with a lease still running: the checker reads the
 * lock key from every node through clients of its own, each with the lease's end by that node's clock ({@code TIME}
 * plus {@code PTTL}), and counts the nodes itself, by the clock they all share, since the test starts every server on
 * one host. Nothing of distlock's quorum logic is used.
 *
 * <p>As with {@link ClusterLockView}, the reads come a round trip or three before the judgement. The holder's lease is
 * its majority's as read: the quorum-th latest of its nodes' lease ends, which the holder keeps at least that long,
 * since leases only grow; so a claim never outlives the majority it was read from. A section whose own majority, as
 * read, has 2 ms or less left on some of its nodes is judged on a fresh read: its lease is then the quorum-th latest end
 * all the same, which the witness finds stale.
 *
 * <p>A node that does not answer, such as one that was killed, may hold the key for anyone: it counts for every owner,
 * and a majority it completes lasts as long as the shortest lease of the others in it. Counting it as empty would see
 * the lock of a holder whose majority included it as taken early, although nobody can take it while the holder's copies
 * on the live nodes run. What keeps the judgement strict is the claims: two holders that each count the silent node
 * hold a live node each, and are caught overlapping if their sections meet.
 */
final class RedlockLockView implements LockView {

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

    private final List<StringRedisTemplate> nodes;
    private final LockView.Counts counts;

    /** Reads lock keys from {@code nodes}, counting in {@code counts} the reads a node did not answer. */
    RedlockLockView(List<StringRedisTemplate> nodes, LockView.Counts counts) {
        this.nodes = List.copyOf(nodes);
        this.counts = counts;
    }

    @Override
    public HolderRead read(String lockKey, String ownerToken) {
        List<NodeRead> reads = new ArrayList<>();
        for (StringRedisTemplate node : nodes) {
            reads.add(read(node, lockKey));
        }
        return majority(reads, ownerToken, System.currentTimeMillis());
    }

    /**
     * The holder of a majority of {@code reads}: the section's own first, since with a silent node another owner may
     * count a majority too; else another owner's whose leases still run at {@code now}; else none. A value naming the
     * section's owner token is its own, whatever mark follows the token.
     */
    static HolderRead majority(List<NodeRead> reads, String ownerToken, long now) {
        int quorum = reads.size() / 2 + 1;
        int silent = (int) reads.stream().filter(NodeRead::silent).count();
        String ownValue = null;
        List<Long> ownEnds = new ArrayList<>();
        Map<String, List<Long>> othersEnds = new LinkedHashMap<>();
        for (NodeRead read : reads) {
            if (read.value() == null) {
                continue;
            }
            if (read.value().startsWith(ownerToken)) {
                ownValue = read.value();
                ownEnds.add(read.leaseEnd());
            } else if (read.leaseEnd() > now) {
                othersEnds
                        .computeIfAbsent(read.value(), value -> new ArrayList<>())
                        .add(read.leaseEnd());
            }
        }
        if (ownValue != null && ownEnds.size() + silent >= quorum) {
            return held(ownValue, majorityEnd(ownEnds, quorum, silent));
        }
        for (Map.Entry<String, List<Long>> other : othersEnds.entrySet()) {
            if (other.getValue().size() + silent >= quorum) {
                return held(other.getKey(), majorityEnd(other.getValue(), quorum, silent));
            }
        }
        return HolderRead.none();
    }

    /** The quorum-th latest of an owner's lease ends, the silent nodes counting as the latest of all. */
    private static long majorityEnd(List<Long> ends, int quorum, int silent) {
        List<Long> latestFirst = ends.stream().sorted(Comparator.reverseOrder()).toList();
        return latestFirst.get(Math.max(1, quorum - silent) - 1);
    }

    private static HolderRead held(String value, long leaseEnd) {
        return leaseEnd == Long.MAX_VALUE ? HolderRead.forGood(value) : HolderRead.until(value, leaseEnd);
    }

    /** The node's value and lease end, a key without expiry held for good; silent if the node did not answer. */
    private NodeRead read(StringRedisTemplate node, String lockKey) {
        try {
            List<String> answer = node.execute(READ, List.of(lockKey));
            if (answer == null || answer.isEmpty()) {
                return new NodeRead(null, 0, false);
            }
            long leaseEnd = Long.parseLong(answer.get(1));
            return new NodeRead(answer.get(0), leaseEnd < 0 ? Long.MAX_VALUE : leaseEnd, false);
        } catch (DataAccessException e) {
            counts.nodeUnanswered();
            return new NodeRead(null, 0, true);
        }
    }

    /**
     * One node's answer to a read.
     *
     * @param value the lock key's value, or null if the node has no such key or did not answer
     * @param leaseEnd when the value's lease ends, ms since the epoch
     * @param silent whether the node did not answer, and may hold the key for anyone
     */
    record NodeRead(@Nullable String value, long leaseEnd, boolean silent) {}
}
