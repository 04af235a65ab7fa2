package io.distlock.test.redis;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;

/** A PING over a plain JDK {@link SSLSocket}, so that no Redis client library stands between a test and the server. */
final class TlsPing {

    private static final int TIMEOUT_MILLIS = 5000;

    private TlsPing() {}

    /**
     * Sends PING and returns the raw reply line, verifying the server's certificate against {@code host} as HTTPS
     * clients (and Lettuce) do.
     */
    static String ping(SSLContext context, String host, int port) throws IOException {
        try (SSLSocket socket = (SSLSocket) context.getSocketFactory().createSocket(host, port)) {
            socket.setSoTimeout(TIMEOUT_MILLIS);
            SSLParameters parameters = socket.getSSLParameters();
            parameters.setEndpointIdentificationAlgorithm("HTTPS");
            socket.setSSLParameters(parameters);
            OutputStream out = socket.getOutputStream();
            out.write(RespConnection.encode("PING"));
            out.flush();
            return readLine(socket.getInputStream());
        }
    }

    private static String readLine(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int current = in.read(); current != '\n'; current = in.read()) {
            if (current == -1) {
                throw new EOFException("The server closed the connection before replying");
            }
            if (current != '\r') {
                line.write(current);
            }
        }
        return line.toString(UTF_8);
    }
}
