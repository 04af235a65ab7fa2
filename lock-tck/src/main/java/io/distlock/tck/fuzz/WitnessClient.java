package io.distlock.tck.fuzz;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.Deque;
import java.util.concurrent.ConcurrentLinkedDeque;

/**
 * A worker's calls to the parent's {@link Witness}, over the loopback interface. A connection carries one call at a
 * time: each call takes an idle connection, or opens one, and gives it back, so that a worker keeps as many as it has
 * threads or holder chains judging at once. A call that fails is a {@link Checker.CheckerFailure}.
 */
final class WitnessClient implements Ledger, AutoCloseable {

    /** Generous, so that a busy machine does not make the run inconclusive. */
    private static final Duration CALL_TIMEOUT = Duration.ofSeconds(10);

    private final int port;
    private final Deque<Connection> idle = new ConcurrentLinkedDeque<>();

    /** Calls the witness listening on {@code port} of the loopback interface. */
    WitnessClient(int port) {
        this.port = port;
    }

    @Override
    public int enter(Claimant section, HolderRead read) {
        return call(out -> {
            out.writeByte(WitnessProtocol.ENTER);
            WitnessProtocol.write(out, section);
            WitnessProtocol.write(out, read);
        });
    }

    @Override
    public int checkpoint(Claimant section, Checkpoint checkpoint, HolderRead read) {
        return call(out -> {
            out.writeByte(WitnessProtocol.CHECKPOINT);
            WitnessProtocol.write(out, section);
            WitnessProtocol.write(out, checkpoint);
            WitnessProtocol.write(out, read);
        });
    }

    @Override
    public void leave(Claimant section) {
        call(out -> {
            out.writeByte(WitnessProtocol.LEAVE);
            WitnessProtocol.write(out, section);
        });
    }

    @Override
    public void refused(String key) {
        call(out -> {
            out.writeByte(WitnessProtocol.REFUSED);
            out.writeUTF(key);
        });
    }

    @Override
    public void takenEarly(Claimant section, String when) {
        call(out -> {
            out.writeByte(WitnessProtocol.TAKEN_EARLY);
            WitnessProtocol.write(out, section);
            out.writeUTF(when);
        });
    }

    /**
     * Waits until the parent lets the workers start.
     *
     * @return false if it did not within {@code wait}
     * @throws Checker.CheckerFailure if the witness could not be reached
     */
    boolean awaitStart(Duration wait) {
        try (Connection connection = open()) {
            connection.socket().setSoTimeout((int) wait.toMillis());
            connection.call(out -> out.writeByte(WitnessProtocol.GO));
            return true;
        } catch (SocketTimeoutException e) {
            return false;
        } catch (IOException e) {
            throw new Checker.CheckerFailure(e);
        }
    }

    /** Closes every idle connection; calls still running close theirs when they end. */
    @Override
    public void close() {
        for (Connection connection = idle.poll(); connection != null; connection = idle.poll()) {
            connection.close();
        }
    }

    private int call(Request request) {
        Connection connection = idle.poll();
        try {
            if (connection == null) {
                connection = open();
            }
            int answer = connection.call(request);
            idle.push(connection);
            return answer;
        } catch (IOException e) {
            if (connection != null) {
                connection.close();
            }
            throw new Checker.CheckerFailure(e);
        }
    }

    private Connection open() throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), port);
        try {
            socket.setTcpNoDelay(true);
            socket.setSoTimeout((int) CALL_TIMEOUT.toMillis());
            return new Connection(
                    socket,
                    new DataInputStream(new BufferedInputStream(socket.getInputStream())),
                    new DataOutputStream(new BufferedOutputStream(socket.getOutputStream())));
        } catch (IOException e) {
            socket.close();
            throw e;
        }
    }

    /** Writes one request. */
    @FunctionalInterface
    private interface Request {
        void writeTo(DataOutputStream out) throws IOException;
    }

    /** One connection to the witness. */
    private record Connection(Socket socket, DataInputStream in, DataOutputStream out) implements AutoCloseable {

        int call(Request request) throws IOException {
            request.writeTo(out);
            out.flush();
            return in.readInt();
        }

        @Override
        public void close() {
            try {
                socket.close();
            } catch (IOException e) {
                // Closed either way.
            }
        }
    }
}
