package io.distlock.redis.internal.redlock;

import io.distlock.redis.internal.engine.LockCommands;
import io.distlock.redis.internal.engine.LockCommands.Attempted;
import io.distlock.redis.internal.engine.LockCommands.Granted;
import io.distlock.redis.internal.engine.SingleNodeCommands;
import io.distlock.redis.internal.scripts.ReleaseIds;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The nodes of a Redlock that had not answered a won acquisition when the vote was decided. A release sent to such a
 * node can run there before the acquisition it releases: a node reached through a fresh connection, or one that fell
 * back from {@code EVALSHA} to {@code EVAL} after a {@code NOSCRIPT} (a restarted node), does not keep the order the
 * commands were sent in. The node would then keep the key until its lease ends; so the release is sent to it again
 * once its late answer says it granted the key, which orders the second release after the grant.
 */
public final class LateGrants {

    private final Map<String, List<Late>> byToken = new ConcurrentHashMap<>();

    /** Remembers the nodes among {@code attempts} that have not answered yet, until they all have. */
    public void expect(String token, List<SingleNodeCommands> nodes, List<LockCommands.Attempt> attempts) {
        List<Late> pending = new ArrayList<>();
        for (int node = 0; node < attempts.size(); node++) {
            CompletableFuture<Attempted> answer = attempts.get(node).call().answer();
            if (!answer.isDone()) {
                pending.add(new Late(nodes.get(node), answer));
            }
        }
        if (pending.isEmpty()) {
            return;
        }
        byToken.put(token, pending);
        CompletableFuture.allOf(pending.stream().map(Late::answer).toArray(CompletableFuture[]::new))
                .whenComplete((done, error) -> byToken.remove(token, pending));
    }

    /** The hold of {@code token} was released or handed over: release it again on each node that grants it late. */
    public void released(String key, String lockKey, String token) {
        List<Late> pending = byToken.remove(token);
        if (pending == null) {
            return;
        }
        for (Late late : pending) {
            late.answer().thenAccept(answer -> {
                if (answer instanceof Granted) {
                    late.node().releaseQuietly(key, lockKey, token, ReleaseIds.newReleaseId());
                }
            });
        }
    }

    private record Late(SingleNodeCommands node, CompletableFuture<Attempted> answer) {}
}
