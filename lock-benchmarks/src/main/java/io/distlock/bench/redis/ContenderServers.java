package io.distlock.bench.redis;

import io.distlock.bench.contender.ContenderKind;
import io.distlock.bench.contender.RedisNodes;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Which Redis each contender locks on, with the harness's connections for reading those servers' commands and CPU:
 * the target for every contender but a Redlock, which locks on independent {@link RedlockServers} of its own. Each
 * contender's figures then count the servers it used and no other.
 */
public final class ContenderServers implements AutoCloseable {

    private final RedisTarget target;
    private final RedlockServers redlockServers;
    private final RedisInfo targetInfo;
    private final Map<Integer, RedisInfo> redlockInfos = new LinkedHashMap<>();

    private ContenderServers(RedisTarget target, RedlockServers redlockServers, RedisInfo targetInfo) {
        this.target = target;
        this.redlockServers = redlockServers;
        this.targetInfo = targetInfo;
    }

    /**
     * Starts as many Redlock servers as the largest Redlock among {@code kinds} needs, and connects to every server.
     *
     * @param target the run's target
     * @param kinds the contenders that will run
     * @return the servers; close them to stop the Redlock servers and the harness's connections
     */
    public static ContenderServers open(RedisTarget target, Collection<ContenderKind> kinds) {
        int redlockNodes =
                kinds.stream().mapToInt(ContenderKind::redlockNodes).max().orElse(0);
        RedlockServers redlockServers = RedlockServers.start(redlockNodes);
        ContenderServers servers;
        try {
            servers = new ContenderServers(target, redlockServers, new RedisInfo(target.nodes()));
        } catch (RuntimeException e) {
            redlockServers.close();
            throw e;
        }
        try {
            kinds.stream()
                    .filter(ContenderKind::isRedlock)
                    .forEach(kind -> servers.redlockInfos.computeIfAbsent(
                            kind.redlockNodes(), count -> new RedisInfo(redlockServers.nodes(count))));
            return servers;
        } catch (RuntimeException e) {
            servers.close();
            throw e;
        }
    }

    /**
     * The servers a contender locks on.
     *
     * @param kind the contender
     * @return the target, or a Redlock's masters
     */
    public RedisNodes nodes(ContenderKind kind) {
        return kind.isRedlock() ? redlockServers.nodes(kind.redlockNodes()) : target.nodes();
    }

    /**
     * The harness's connections to the servers a contender locks on.
     *
     * @param kind the contender
     * @return connections to the target, or to a Redlock's masters
     * @throws IllegalArgumentException for a Redlock that was not among the kinds given when opening
     */
    public RedisInfo info(ContenderKind kind) {
        if (!kind.isRedlock()) {
            return targetInfo;
        }
        RedisInfo info = redlockInfos.get(kind.redlockNodes());
        if (info == null) {
            throw new IllegalArgumentException("no servers were started for " + kind.label());
        }
        return info;
    }

    /**
     * The harness's connections to the target.
     *
     * @return connections to every node of the target
     */
    public RedisInfo targetInfo() {
        return targetInfo;
    }

    /**
     * Where the Redlock servers listen, for the progress output.
     *
     * @return a description
     */
    public String redlockDescription() {
        return redlockServers.description();
    }

    @Override
    public void close() {
        redlockInfos.values().forEach(RedisInfo::close);
        targetInfo.close();
        redlockServers.close();
    }
}
