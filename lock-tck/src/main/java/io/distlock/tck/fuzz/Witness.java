package io.distlock.tck.fuzz;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;

/**
 * The checker's witness in the parent JVM of a run: it serves the workers' judgements from one {@link Ledger} over
 * a loopback socket ({@link WitnessProtocol}), a thread for each connection, and holds their start until {@link #go}.
 * It needs no server: its records are the ledger's, in this JVM, and its clock is this JVM's.
 */
final class Witness implements AutoCloseable {

    /** Every worker thread may connect at once as the run starts. */
    private static final int BACKLOG = 200;

    private final Ledger ledger;
    private final ServerSocket server;
    private final CountDownLatch go = new CountDownLatch(1);
    private final Set<Socket> connections = ConcurrentHashMap.newKeySet();

    private Witness(Ledger ledger, ServerSocket server) {
        this.ledger = ledger;
        this.server = server;
    }

    /** A witness for {@code ledger}, listening on a free port of the loopback interface. */
    static Witness start(Ledger ledger) {
        try {
            Witness witness = new Witness(ledger, new ServerSocket(0, BACKLOG, InetAddress.getLoopbackAddress()));
            Thread acceptor = new Thread(witness::accept, "fuzz-witness");
            acceptor.setDaemon(true);
            acceptor.start();
            return witness;
        } catch (IOException e) {
            throw new UncheckedIOException("the fuzz witness could not listen on the loopback interface", e);
        }
    }

    /** The port the workers connect to. */
    int port() {
        return server.getLocalPort();
    }

    /** Lets every worker start, those waiting and those yet to ask. */
    void go() {
        go.countDown();
    }

    /** Stops listening and drops every connection; the ledger stays readable. */
    @Override
    public void close() {
        try {
            server.close();
        } catch (IOException e) {
            // Nothing listens any more either way.
        }
        connections.forEach(Witness::closeQuietly);
        // Serving threads still waiting for the start wake up, find their connection closed and end.
        go.countDown();
    }

    private void accept() {
        while (!server.isClosed()) {
            try {
                Socket socket = server.accept();
                socket.setTcpNoDelay(true);
                connections.add(socket);
                Thread serving = new Thread(() -> serve(socket), "fuzz-witness-" + socket.getPort());
                serving.setDaemon(true);
                serving.start();
            } catch (IOException e) {
                // Closed, which ends the loop; or one connection failed as it came in, which its worker reports.
            }
        }
    }

    private void serve(Socket socket) {
        try (socket;
                DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
                DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()))) {
            for (int request = in.read(); request >= 0; request = in.read()) {
                out.writeInt(WitnessProtocol.answer(request, in, ledger, go::await));
                out.flush();
            }
        } catch (IOException e) {
            // The worker ended or was killed; had it been judging, it reports its own failure.
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            connections.remove(socket);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // Closed either way.
        }
    }
}
