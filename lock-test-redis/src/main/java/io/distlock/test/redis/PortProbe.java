package io.distlock.test.redis;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Asks a port whether a Redis answers there, or whether anything listens there at all. */
final class PortProbe {

    private static final Duration PROBE_TIMEOUT = Duration.ofMillis(500);
    private static final long POLL_MILLIS = 20;
    private static final Pattern PROCESS_ID = Pattern.compile("(?m)^process_id:(\\d+)");

    private PortProbe() {}

    /**
     * True when a Redis answers PING; {@code NOAUTH} counts, because it proves the server is up even though the probe
     * does not authenticate.
     */
    static boolean answersPing(String host, int port) {
        try (RespConnection connection = RespConnection.open(host, port, PROBE_TIMEOUT)) {
            return "PONG".equals(connection.call("PING"));
        } catch (IllegalStateException e) {
            return String.valueOf(e.getMessage()).startsWith("NOAUTH");
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * True when the Redis answering on the port is the process {@code pid}. A server that lost a race for its port
     * exits only after a few milliseconds, and until then another process's Redis must not pass for it.
     */
    static boolean isServedBy(String host, int port, String password, long pid) {
        try (RespConnection connection = RespConnection.open(host, port, PROBE_TIMEOUT)) {
            if (password != null) {
                connection.call("AUTH", password);
            }
            Matcher processId = PROCESS_ID.matcher(connection.call("INFO", "server"));
            return processId.find() && Long.parseLong(processId.group(1)) == pid;
        } catch (IllegalStateException e) {
            // Config directives may lock the default user out; a Redis that refuses is still up, if unidentified.
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    static boolean isListening(String host, int port) {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), Math.toIntExact(PROBE_TIMEOUT.toMillis()));
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** Waits until nothing accepts connections on the port any more. */
    static void awaitClosed(String host, int port, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (isListening(host, port)) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException(host + ":" + port + " still accepts connections after " + timeout);
            }
            sleepPollInterval();
        }
    }

    /** Sleeps for one polling interval, keeping the interrupt visible to callers that poll in a loop. */
    static void sleepPollInterval() {
        try {
            Thread.sleep(POLL_MILLIS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while waiting for a Redis server", e);
        }
    }
}
