package io.distlock.bench.redis;

import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * How many times Redis ran each command, by lower-case command name ({@code evalsha}, {@code client|setinfo}).
 *
 * <p>Commands that no lock operation needs are left out of {@link #lockWork()}: the harness's own ({@code info},
 * {@code echo}, {@code monitor}, and {@code incrby}/{@code decrby} of the cross-process check, which no contender
 * uses), and the clients' connection setup and keep-alive ({@code hello}, {@code auth}, {@code select}, {@code
 * client|...}, {@code command...}, {@code ping}: Redisson pings each pooled connection every 30 s), and on a cluster
 * their topology refreshes ({@code cluster|nodes}, {@code cluster|slots}, ...: every client re-reads the topology
 * every few seconds, the harness's own check connection too, however many locks it takes).
 *
 * <p>On a cluster they also hold the pub/sub messages the nodes sent each other over the cluster bus, under {@link
 * #BUS_PUBLISH} and {@link #BUS_SHARDED_PUBLISH}; those are not commands, and not in {@link #lockWork()} either.
 */
public final class CommandCounts {

    /** Messages of classic {@code PUBLISH} that cluster nodes sent each other over the bus. */
    public static final String BUS_PUBLISH = "bus|publish";

    /** Messages of sharded {@code SPUBLISH} that cluster nodes sent each other over the bus. */
    public static final String BUS_SHARDED_PUBLISH = "bus|publishshard";

    private static final Set<String> NOT_LOCK_WORK = Set.of(
            "info", "echo", "monitor", "incrby", "decrby", "hello", "auth", "select", "ping", "client", "command",
            "config", "quit", "reset", "cluster", "bus");

    private static final Set<String> SUBSCRIBES = Set.of("subscribe", "psubscribe", "ssubscribe");
    private static final Set<String> UNSUBSCRIBES = Set.of("unsubscribe", "punsubscribe", "sunsubscribe");

    private final Map<String, Long> calls;

    CommandCounts(Map<String, Long> calls) {
        this.calls = Map.copyOf(calls);
    }

    /**
     * No commands at all.
     *
     * @return empty counts
     */
    public static CommandCounts none() {
        return new CommandCounts(Map.of());
    }

    /**
     * The commands run since {@code earlier} was taken.
     *
     * @param earlier an earlier reading of the same server
     * @return the difference, command by command
     */
    public CommandCounts since(CommandCounts earlier) {
        Map<String, Long> delta = new TreeMap<>();
        calls.forEach((name, count) -> {
            long difference = count - earlier.calls.getOrDefault(name, 0L);
            if (difference != 0) {
                delta.put(name, difference);
            }
        });
        return new CommandCounts(delta);
    }

    /**
     * Only the commands that lock operations need, sorted by name.
     *
     * @return the counts without the harness's and the connections' own commands
     */
    public Map<String, Long> lockWork() {
        Map<String, Long> work = new TreeMap<>();
        calls.forEach((name, count) -> {
            if (isLockWork(name)) {
                work.put(name, count);
            }
        });
        return work;
    }

    /**
     * All lock work in one number.
     *
     * @return the sum of {@link #lockWork()}
     */
    public long lockWorkTotal() {
        return lockWork().values().stream().mapToLong(Long::longValue).sum();
    }

    /**
     * Subscription commands ({@code subscribe}, {@code psubscribe}, {@code ssubscribe}).
     *
     * @return how many were run
     */
    public long subscribes() {
        return sum(SUBSCRIBES);
    }

    /**
     * Unsubscription commands.
     *
     * @return how many were run
     */
    public long unsubscribes() {
        return sum(UNSUBSCRIBES);
    }

    /**
     * Pub/sub messages that cluster nodes sent each other over the bus, classic and sharded together.
     *
     * @return how many; 0 off a cluster
     */
    public long busMessages() {
        return sum(Set.of(BUS_PUBLISH, BUS_SHARDED_PUBLISH));
    }

    static boolean isLockWork(String name) {
        int bar = name.indexOf('|');
        return !NOT_LOCK_WORK.contains(bar < 0 ? name : name.substring(0, bar));
    }

    private long sum(Set<String> names) {
        return names.stream().mapToLong(name -> calls.getOrDefault(name, 0L)).sum();
    }

    @Override
    public String toString() {
        return new TreeMap<>(calls).toString();
    }
}
