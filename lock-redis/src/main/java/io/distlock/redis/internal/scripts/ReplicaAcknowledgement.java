package io.distlock.redis.internal.scripts;

import io.lettuce.core.RedisFuture;
import io.lettuce.core.RedisNoScriptException;
import io.lettuce.core.ScriptOutputType;
import io.lettuce.core.cluster.api.async.RedisAdvancedClusterAsyncCommands;
import io.lettuce.core.cluster.api.async.RedisClusterAsyncCommands;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Predicate;
import org.springframework.data.redis.connection.RedisClusterConnection;
import org.springframework.data.redis.connection.RedisClusterNode;
import org.springframework.data.redis.connection.RedisConnection;
import org.springframework.data.redis.core.script.RedisScript;

/**
 * Makes a granting script count only once replicas have it: the script runs, and when its answer is a grant, Redis's
 * {@code WAIT} follows on the same connection, which waits for that connection's writes alone. On Redis Cluster that
 * connection is the cluster client's connection to the master of the key's slot, the one it routes the script over.
 *
 * <p>What it gives: a grant that a promoted replica would lose, because it reached too few replicas, is refused
 * instead. What it does not: WAIT is not consensus. The replica that acknowledged may not be the one promoted, a write
 * can still reach replicas after WAIT gave up, and a replica that acknowledged can itself fail. While a slot migrates,
 * a script redirected to the importing master is waited for on the connection to the old one, which may answer early.
 *
 * <p>It blocks, so it runs on a distlock thread, never on the caller's.
 */
public final class ReplicaAcknowledgement {

    private final int replicas;
    private final long timeoutMillis;

    public ReplicaAcknowledgement(int replicas, long timeoutMillis) {
        this.replicas = replicas;
        this.timeoutMillis = timeoutMillis;
    }

    /**
     * Runs the script, by SHA and by text after a NOSCRIPT, on the connection's native client and, if {@code isGrant}
     * says its answer grants something, waits for the replicas.
     *
     * @throws NotAcknowledged when too few acknowledged in time; the grant then stands in Redis until the caller
     *     releases it
     */
    Object run(
            RedisConnection connection,
            RedisScript<?> script,
            List<String> keys,
            List<String> args,
            Predicate<Object> isGrant,
            long commandTimeoutMillis)
            throws InterruptedException, ExecutionException, TimeoutException {
        byte[][] keyBytes = keys.stream().map(ReplicaAcknowledgement::bytes).toArray(byte[][]::new);
        byte[][] argBytes = args.stream().map(ReplicaAcknowledgement::bytes).toArray(byte[][]::new);
        @SuppressWarnings("unchecked")
        RedisClusterAsyncCommands<byte[], byte[]> commands =
                (RedisClusterAsyncCommands<byte[], byte[]>) connection.getNativeConnection();
        Object answer;
        try {
            answer = await(
                    commands.evalsha(script.getSha1(), ScriptOutputType.INTEGER, keyBytes, argBytes),
                    commandTimeoutMillis);
        } catch (ExecutionException e) {
            if (!(e.getCause() instanceof RedisNoScriptException)) {
                throw e;
            }
            answer = await(
                    commands.eval(script.getScriptAsString(), ScriptOutputType.INTEGER, keyBytes, argBytes),
                    commandTimeoutMillis);
        }
        if (!isGrant.test(answer)) {
            return answer;
        }
        RedisClusterAsyncCommands<byte[], byte[]> sameConnection = commands;
        if (commands instanceof RedisAdvancedClusterAsyncCommands<byte[], byte[]> cluster
                && connection instanceof RedisClusterConnection clusterConnection) {
            // The cluster client keeps one connection per node, by host and port, for the slots' writes.
            RedisClusterNode master = clusterConnection.clusterGetNodeForKey(keyBytes[0]);
            sameConnection = cluster.getConnection(master.getHost(), master.getPort());
        }
        long acknowledged = await(sameConnection.waitForReplication(replicas, timeoutMillis), commandTimeoutMillis);
        if (acknowledged < replicas) {
            throw new NotAcknowledged(acknowledged, replicas, timeoutMillis);
        }
        return answer;
    }

    private static <T> T await(RedisFuture<T> future, long timeoutMillis)
            throws InterruptedException, ExecutionException, TimeoutException {
        return future.get(timeoutMillis, TimeUnit.MILLISECONDS);
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /** Fewer replicas than asked acknowledged a grant in time; the caller frees the grant again. */
    static final class NotAcknowledged extends RuntimeException {

        private static final long serialVersionUID = 1L;

        NotAcknowledged(long acknowledged, int wanted, long timeoutMillis) {
            super("only " + acknowledged + " of the " + wanted + " replica(s) asked for acknowledged the grant within "
                    + timeoutMillis + " ms (replica acknowledgements), so it does not count and is released again");
        }
    }
}
