package io.distlock.test.redis;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A minimal RESP2 client on a plain socket, so that test support needs no Redis client library and can talk to a
 * server whose client libraries are the very thing under test.
 */
final class RespConnection implements Closeable {

    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    private RespConnection(Socket socket) throws IOException {
        this.socket = socket;
        this.in = new BufferedInputStream(socket.getInputStream());
        this.out = socket.getOutputStream();
    }

    /**
     * Connects with {@code timeout} as both connect and read timeout, so a paused or dead server can never hang the
     * caller.
     */
    static RespConnection open(String host, int port, Duration timeout) throws IOException {
        Socket socket = new Socket();
        try {
            int millis = Math.toIntExact(timeout.toMillis());
            socket.connect(new InetSocketAddress(host, port), millis);
            socket.setSoTimeout(millis);
            socket.setTcpNoDelay(true);
            return new RespConnection(socket);
        } catch (IOException | RuntimeException e) {
            socket.close();
            throw e;
        }
    }

    /**
     * Runs one command on a new connection, authenticating first if {@code password} is not null.
     *
     * @return the reply, as {@link #call} returns it
     */
    static String callOnce(String host, int port, String password, Duration timeout, String... args)
            throws IOException {
        try (RespConnection connection = open(host, port, timeout)) {
            if (password != null) {
                connection.call("AUTH", password);
            }
            return connection.call(args);
        }
    }

    /**
     * Sends one command and reads its reply.
     *
     * @return simple strings, integers and bulk strings as text, a null bulk string or null array as {@code null},
     *     arrays as their elements joined by line feeds (null elements as empty lines)
     * @throws IllegalStateException with the error text when Redis answers with an error
     */
    String call(String... args) throws IOException {
        out.write(encode(args));
        out.flush();
        return readReply();
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }

    static byte[] encode(String... args) {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        writeAscii(buffer, "*" + args.length + "\r\n");
        for (String arg : args) {
            byte[] bytes = arg.getBytes(UTF_8);
            writeAscii(buffer, "$" + bytes.length + "\r\n");
            buffer.writeBytes(bytes);
            writeAscii(buffer, "\r\n");
        }
        return buffer.toByteArray();
    }

    private static void writeAscii(ByteArrayOutputStream buffer, String text) {
        buffer.writeBytes(text.getBytes(UTF_8));
    }

    private String readReply() throws IOException {
        int type = in.read();
        if (type == -1) {
            throw new EOFException("Redis closed the connection before replying");
        }
        String line = readLine();
        switch (type) {
            case '+':
            case ':':
                return line;
            case '-':
                throw new IllegalStateException(line);
            case '$':
                return readBulk(Integer.parseInt(line));
            case '*':
                return readArray(Integer.parseInt(line));
            default:
                throw new IOException("Not a RESP2 reply, it starts with " + (char) type + line);
        }
    }

    private String readBulk(int length) throws IOException {
        if (length < 0) {
            return null;
        }
        byte[] data = in.readNBytes(length);
        if (data.length < length) {
            throw new EOFException("Redis closed the connection in the middle of a reply");
        }
        readLine();
        return new String(data, UTF_8);
    }

    private String readArray(int count) throws IOException {
        if (count < 0) {
            return null;
        }
        List<String> elements = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            elements.add(Objects.toString(readReply(), ""));
        }
        return String.join("\n", elements);
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int previous = -1;
        while (true) {
            int current = in.read();
            if (current == -1) {
                throw new EOFException("Redis closed the connection in the middle of a reply");
            }
            if (previous == '\r' && current == '\n') {
                byte[] bytes = line.toByteArray();
                return new String(bytes, 0, bytes.length - 1, UTF_8);
            }
            line.write(current);
            previous = current;
        }
    }
}
