package io.distlock.bench.redis;

import io.distlock.bench.contender.RedisEndpoint;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Watches Redis's {@code MONITOR} stream to tell the commands clients send from those Lua scripts call, which {@code
 * INFO commandstats} counts alike. MONITOR slows Redis down, so it only runs during short probes, never during trials.
 * On a cluster it watches every node, since each shows only the commands it ran.
 *
 * <p>Each line reads {@code +1700000000.123456 [0 127.0.0.1:50000] "evalsha" ...}; a command called by a script shows
 * {@code [0 lua]} instead of the client's address.
 */
public final class CommandMonitor implements AutoCloseable {

    private static final int TIMEOUT_MILLIS = 10_000;

    private final RedisInfo info;
    private final String endMarker = "bench-monitor-end-" + UUID.randomUUID();
    private final Map<String, Long> topLevel = new ConcurrentHashMap<>();
    private final Map<String, Long> inScripts = new ConcurrentHashMap<>();
    private final List<NodeStream> streams = new ArrayList<>();

    private CommandMonitor(RedisInfo info) {
        this.info = info;
    }

    /**
     * Starts monitoring every node that {@code info} asks; returns once each confirmed, so every command sent
     * afterwards is seen.
     *
     * @param info the harness's connections, used to mark the end of each node's stream
     * @return the running monitor
     */
    public static CommandMonitor start(RedisInfo info) {
        CommandMonitor monitor = new CommandMonitor(info);
        try {
            for (RedisEndpoint endpoint : info.endpoints()) {
                monitor.streams.add(monitor.new NodeStream(endpoint));
            }
            return monitor;
        } catch (RuntimeException e) {
            monitor.close();
            throw e;
        }
    }

    /**
     * Waits until every command sent before this call was seen on every node, and returns what was seen.
     *
     * @return the lock work seen, split by sender, all nodes together
     * @throws InterruptedException if interrupted while waiting for the streams' end
     */
    public MonitorCounts awaitCounts() throws InterruptedException {
        for (NodeStream stream : streams) {
            info.echo(stream.endpoint, endMarker);
        }
        for (NodeStream stream : streams) {
            stream.awaitEnd();
        }
        return new MonitorCounts(topLevel, inScripts);
    }

    /** Ends monitoring by closing its connections. */
    @Override
    public void close() {
        streams.forEach(NodeStream::close);
    }

    private void count(String line) {
        int open = line.indexOf(" [");
        int close = line.indexOf("] \"", open);
        if (open < 0 || close < 0) {
            return;
        }
        int nameStart = close + 3;
        int nameEnd = line.indexOf('"', nameStart);
        String name = line.substring(nameStart, nameEnd).toLowerCase(Locale.ROOT);
        if (!CommandCounts.isLockWork(name)) {
            return;
        }
        boolean fromScript = line.substring(open, close).endsWith(" lua");
        (fromScript ? inScripts : topLevel).merge(name, 1L, Long::sum);
    }

    /** One node's MONITOR connection and the thread that reads it. */
    private final class NodeStream {

        private final RedisEndpoint endpoint;
        private final Socket socket = new Socket();
        private final CountDownLatch ended = new CountDownLatch(1);
        private volatile IOException failure;

        NodeStream(RedisEndpoint endpoint) {
            this.endpoint = endpoint;
            try {
                socket.connect(new InetSocketAddress(endpoint.host(), endpoint.port()), TIMEOUT_MILLIS);
                socket.setSoTimeout(TIMEOUT_MILLIS);
                BufferedReader lines =
                        new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
                OutputStream out = socket.getOutputStream();
                if (endpoint.password() != null) {
                    send(out, "AUTH", endpoint.password());
                    expectOk(lines.readLine(), "AUTH");
                }
                send(out, "MONITOR");
                expectOk(lines.readLine(), "MONITOR");
                // From now on the stream may be quiet for a while; its end is marked by an ECHO, not a timeout.
                socket.setSoTimeout(0);
                Thread reader = new Thread(() -> read(lines), "bench-monitor-" + endpoint.port());
                reader.setDaemon(true);
                reader.start();
            } catch (IOException e) {
                close();
                throw new UncheckedIOException("could not start MONITOR on " + endpoint.address(), e);
            }
        }

        void awaitEnd() throws InterruptedException {
            if (!ended.await(TIMEOUT_MILLIS, TimeUnit.MILLISECONDS)) {
                throw new IllegalStateException("MONITOR on " + endpoint.address()
                        + " did not show the end marker within " + TIMEOUT_MILLIS + " ms");
            }
            if (failure != null) {
                throw new UncheckedIOException("MONITOR stream of " + endpoint.address() + " broke", failure);
            }
        }

        void close() {
            try {
                socket.close();
            } catch (IOException e) {
                // Closing is all that is left to do with it.
            }
        }

        private void read(BufferedReader lines) {
            try {
                String line;
                while ((line = lines.readLine()) != null) {
                    if (line.contains(endMarker)) {
                        break;
                    }
                    count(line);
                }
            } catch (IOException e) {
                failure = e;
            } finally {
                ended.countDown();
            }
        }
    }

    private static void send(OutputStream out, String... args) throws IOException {
        StringBuilder command = new StringBuilder("*").append(args.length).append("\r\n");
        for (String arg : args) {
            byte[] bytes = arg.getBytes(StandardCharsets.UTF_8);
            command.append('$').append(bytes.length).append("\r\n").append(arg).append("\r\n");
        }
        out.write(command.toString().getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    private static void expectOk(String reply, String command) throws IOException {
        if (!"+OK".equals(reply)) {
            throw new IOException(command + " answered " + reply);
        }
    }
}
