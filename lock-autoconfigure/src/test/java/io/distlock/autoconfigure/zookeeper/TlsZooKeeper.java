package io.distlock.autoconfigure.zookeeper;

import io.distlock.tck.net.FreePorts;
import io.distlock.test.redis.TestCertificates;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServer;
import org.springframework.util.FileSystemUtils;

/**
 * An in-process ZooKeeper that answers only over TLS, with a certificate of a test authority for 127.0.0.1. ZooKeeper's
 * server reads its TLS settings from system properties whenever a client connects, so they are set for as long as it
 * runs and restored on {@link #close()}; it sets no trust store, which clients of this JVM would take as theirs.
 */
final class TlsZooKeeper implements AutoCloseable {

    /** The address the test certificate names. */
    private static final String LOOPBACK = "127.0.0.1";

    private final TestCertificates certificates = TestCertificates.generate();
    private final Map<String, String> previous = new LinkedHashMap<>();
    private final Path dataDirectory;
    private final ServerCnxnFactory connections;
    private final ZooKeeperServer server;
    private final int port = FreePorts.next();

    TlsZooKeeper() throws IOException, InterruptedException {
        Path keyStore = certificates.serverCertificate().resolveSibling("zookeeper-server.pem");
        Files.writeString(
                keyStore,
                Files.readString(certificates.serverPrivateKey()) + Files.readString(certificates.serverCertificate()));
        set("zookeeper.serverCnxnFactory", "org.apache.zookeeper.server.NettyServerCnxnFactory");
        set("zookeeper.ssl.keyStore.location", keyStore.toString());
        set("zookeeper.ssl.keyStore.type", "PEM");
        set("zookeeper.ssl.clientAuth", "none");
        dataDirectory = Files.createTempDirectory("distlock-zookeeper-tls-");
        server = new ZooKeeperServer(dataDirectory.toFile(), dataDirectory.toFile(), 100);
        connections = ServerCnxnFactory.createFactory();
        connections.configure(new InetSocketAddress(LOOPBACK, port), 100, -1, true);
        connections.startup(server);
    }

    String connectString() {
        return LOOPBACK + ":" + port;
    }

    /** The authority that signed the server's certificate, as a PEM file. */
    Path caCertificate() {
        return certificates.caCertificate();
    }

    private void set(String name, String value) {
        previous.put(name, System.getProperty(name));
        System.setProperty(name, value);
    }

    @Override
    public void close() throws IOException {
        connections.shutdown();
        server.shutdown();
        previous.forEach((name, value) -> {
            if (value == null) {
                System.clearProperty(name);
            } else {
                System.setProperty(name, value);
            }
        });
        certificates.close();
        FileSystemUtils.deleteRecursively(dataDirectory);
    }
}
