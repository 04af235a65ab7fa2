package io.distlock.test.redis;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one Sentinel says about a monitored primary, asked over {@link RespConnection}. A Sentinel that cannot be
 * reached or does not know the primary yet answers "nothing", so callers can poll until it does.
 */
final class SentinelQueries {

    private static final Duration TIMEOUT = Duration.ofSeconds(2);

    private final String host;
    private final int port;
    private final String masterName;

    SentinelQueries(String host, int port, String masterName) {
        this.host = host;
        this.port = port;
        this.masterName = masterName;
    }

    /**
     * True when this Sentinel names {@code primaryPort} as the primary and sees it, {@code replicas} replicas and
     * {@code otherSentinels} other Sentinels, none of them down or disconnected. A replica's master link shows "ok" only
     * once the Sentinel has read the replica's own INFO, which choosing a replica to promote needs.
     */
    boolean isReadyToFailOver(int primaryPort, int replicas, int otherSentinels) {
        return primaryPort().equals(Optional.of(primaryPort))
                && "master".equals(primary().get("flags"))
                && allHealthy(replicas(), replicas, "slave")
                && allHealthy(otherSentinels(), otherSentinels, "sentinel");
    }

    /** The port of the primary as this Sentinel names it ({@code SENTINEL get-master-addr-by-name}). */
    Optional<Integer> primaryPort() {
        return call("SENTINEL", "get-master-addr-by-name", masterName)
                .filter(reply -> !reply.isEmpty())
                .map(reply -> Integer.parseInt(reply.substring(reply.indexOf('\n') + 1)));
    }

    /** The fields of {@code SENTINEL master}, such as {@code flags}. */
    Map<String, String> primary() {
        List<Map<String, String>> entries = entries("master");
        return entries.isEmpty() ? Map.of() : entries.get(0);
    }

    /** One map of fields per replica that this Sentinel knows, such as {@code flags} and {@code master-link-status}. */
    List<Map<String, String>> replicas() {
        return entries("replicas");
    }

    /** One map of fields per other Sentinel that this Sentinel knows, such as {@code flags}. */
    List<Map<String, String>> otherSentinels() {
        return entries("sentinels");
    }

    private static boolean allHealthy(List<Map<String, String>> instances, int count, String flags) {
        return instances.size() == count
                && instances.stream()
                        .allMatch(instance -> flags.equals(instance.get("flags"))
                                && !"err".equals(instance.get("master-link-status")));
    }

    /**
     * Reads a reply of field-value pairs, one group per instance. {@link RespConnection} flattens nested arrays into
     * lines, so a group starts wherever the field {@code name} does, which Sentinel always lists first.
     */
    private List<Map<String, String>> entries(String subcommand) {
        List<Map<String, String>> entries = new ArrayList<>();
        Optional<String> reply = call("SENTINEL", subcommand, masterName);
        if (reply.isEmpty() || reply.get().isEmpty()) {
            return entries;
        }
        String[] lines = reply.get().split("\n", -1);
        Map<String, String> current = null;
        for (int i = 0; i + 1 < lines.length; i += 2) {
            if (lines[i].equals("name") || current == null) {
                current = new LinkedHashMap<>();
                entries.add(current);
            }
            current.put(lines[i], lines[i + 1]);
        }
        return entries;
    }

    private Optional<String> call(String... args) {
        try (RespConnection connection = RespConnection.open(host, port, TIMEOUT)) {
            return Optional.ofNullable(connection.call(args));
        } catch (IOException | IllegalStateException e) {
            // Unreachable, or "No such master with that name" while the Sentinel is still starting.
            return Optional.empty();
        }
    }
}
