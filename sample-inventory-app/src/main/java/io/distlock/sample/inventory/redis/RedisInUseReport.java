package io.distlock.sample.inventory.redis;

import java.util.List;
import java.util.stream.Collectors;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.context.event.ApplicationReadyEvent;
import org.springframework.boot.data.redis.autoconfigure.DataRedisConnectionDetails;
import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * Logs, once the application is ready, which Redis holds the stock and the locks: running two instances against two
 * different Redis servers would let both sell the same units, so this is worth a line in every log.
 */
@Component
class RedisInUseReport {

    private static final Logger log = LoggerFactory.getLogger(RedisInUseReport.class);

    private final DataRedisConnectionDetails connection;
    private final ObjectProvider<EmbeddedRedis> embedded;

    RedisInUseReport(DataRedisConnectionDetails connection, ObjectProvider<EmbeddedRedis> embedded) {
        this.connection = connection;
        this.embedded = embedded;
    }

    @EventListener(ApplicationReadyEvent.class)
    void report() {
        String source = embedded.getIfAvailable() != null
                ? "the embedded redis-server started by this instance"
                : "configured with spring.data.redis.*";
        log.info("Stock and locks are in Redis at {} ({})", describe(connection), source);
    }

    /** Where the connection goes, without the password. */
    static String describe(DataRedisConnectionDetails connection) {
        if (connection.getCluster() != null) {
            return "cluster " + nodes(connection.getCluster().getNodes());
        }
        if (connection.getSentinel() != null) {
            return "sentinel master '" + connection.getSentinel().getMaster() + "' via "
                    + nodes(connection.getSentinel().getNodes());
        }
        if (connection.getMasterReplica() != null) {
            return "master/replica " + nodes(connection.getMasterReplica().getNodes());
        }
        DataRedisConnectionDetails.Standalone standalone = connection.getStandalone();
        return standalone.getHost() + ":" + standalone.getPort() + ", database " + standalone.getDatabase();
    }

    private static String nodes(List<DataRedisConnectionDetails.Node> nodes) {
        return nodes.stream().map(node -> node.host() + ":" + node.port()).collect(Collectors.joining(", "));
    }
}
