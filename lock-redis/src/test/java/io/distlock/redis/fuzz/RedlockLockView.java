package io.distlock.redis.fuzz;

import io.distlock.test.fuzz.LockView;
import java.util.ArrayList;
import java.util.List;
import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.script.DefaultRedisScript;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * The locks live on the independent masters of a Redlock, the checker's records on a Redis of their own. A lock is
 * held, as the checker judges it, by whoever a majority of the nodes names with a lease still running: the checker
 * reads the lock key from every node through clients of its own, each with the lease's end by that node's clock
 * ({@code TIME} plus {@code PTTL}), and its script counts the nodes itself, by the clock they all share, since the test
 * starts every server on one host. Nothing of distlock's quorum logic is used.
 *
 * <p>As with {@link ClusterLockView}, the reads come a round trip or three before the judgement. A claim is set to the
 * lease of the holder's majority as read: the quorum-th longest of its nodes' leases, which the holder keeps at least
 * that long, since leases only grow; so a claim never outlives the majority it was read from. A section whose own
 * majority, as read, has 2 ms or less left on some of its nodes is judged on a fresh read (the prelude answers -2).
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

    /** What the prelude takes for the value of a node that did not answer. */
    private static final String SILENT = "?";

    private final List<StringRedisTemplate> nodes;
    private final LockView.Counts counts;

    /** Reads lock keys from {@code nodes}, counting in {@code counts} the reads a node did not answer. */
    RedlockLockView(List<StringRedisTemplate> nodes, LockView.Counts counts) {
        this.nodes = List.copyOf(nodes);
        this.counts = counts;
    }

    @Override
    public String prelude() {
        return """
                -- The last argument: how many nodes; before it, each node's lock key value ('' if gone, '?' if the
                -- node did not answer) and its lease's end in ms, read just before.
                local nodes = tonumber(ARGV[#ARGV])
                local first = #ARGV - 2 * nodes
                local quorum = math.floor(nodes / 2) + 1
                local clock = redis.call('time')
                local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
                local ttl_at = now
                -- A value naming the section's owner token is its own, whatever mark follows the token.
                local leases, values, own_read, silent = {}, {}, 0, 0
                for i = 0, nodes - 1 do
                  local value, left = ARGV[first + 2 * i], tonumber(ARGV[first + 2 * i + 1]) - now
                  if value == '?' then
                    silent = silent + 1
                  elseif value ~= '' then
                    local owner = value
                    if string.sub(value, 1, #ARGV[1]) == ARGV[1] then
                      owner = ARGV[1]
                      own_read = own_read + 1
                    end
                    if (owner == ARGV[1] and left > 2) or (owner ~= ARGV[1] and left > 0) then
                      leases[owner] = leases[owner] or {}
                      values[owner] = value
                      table.insert(leases[owner], left)
                    end
                  end
                end
                -- A silent node may hold the key for anyone, for as long as any lease: it counts for every owner, and
                -- the lease of a majority it completes is the shortest of the others in it.
                local function majority_lease(owner)
                  local left = leases[owner]
                  if left and #left + silent >= quorum then
                    table.sort(left, function(a, b) return a > b end)
                    return left[math.max(1, quorum - silent)]
                  end
                end
                -- The section's own majority first: with a silent node, another owner may count a majority too.
                local holder, ttl = false, -2
                local own_lease = majority_lease(ARGV[1])
                if own_lease then
                  holder, ttl = values[ARGV[1]], own_lease
                else
                  for owner in pairs(leases) do
                    local lease = majority_lease(owner)
                    if lease then
                      holder, ttl = values[owner], lease
                    end
                  end
                end
                -- The section's own majority as read has run out by now, or nearly: what it holds now is unknown.
                if own_read > 0 and own_read + silent >= quorum and not own_lease then
                  return -2
                end
                """;
    }

    @Override
    public List<String> keys(String lockKey) {
        return List.of();
    }

    @Override
    public List<String> args(String lockKey) {
        List<String> args = new ArrayList<>();
        for (StringRedisTemplate node : nodes) {
            args.addAll(read(node, lockKey));
        }
        args.add(Integer.toString(nodes.size()));
        return args;
    }

    /** A key without expiry is held for good. */
    private static long leaseEnd(long read) {
        return read < 0 ? Long.MAX_VALUE : read;
    }

    /** The node's value and lease end; '?' if the node did not answer. */
    private List<String> read(StringRedisTemplate node, String lockKey) {
        try {
            List<String> answer = node.execute(READ, List.of(lockKey));
            if (answer == null || answer.isEmpty()) {
                return List.of("", "0");
            }
            return List.of(answer.get(0), Long.toString(leaseEnd(Long.parseLong(answer.get(1)))));
        } catch (DataAccessException e) {
            counts.nodeUnanswered();
            return List.of(SILENT, "0");
        }
    }
}
