package io.distlock.test.redis;

import static java.nio.charset.StandardCharsets.UTF_8;

/** A server's address spelled as a connection URI that Lettuce and Spring Data Redis understand. */
final class RedisUri {

    private RedisUri() {}

    /** {@code redis://[:password@]host:port}, with the password percent-encoded; no password if it is null. */
    static String of(String host, int port, String password) {
        String credentials = password == null ? "" : ":" + percentEncode(password) + "@";
        return "redis://" + credentials + host + ":" + port;
    }

    private static String percentEncode(String text) {
        StringBuilder encoded = new StringBuilder();
        for (byte b : text.getBytes(UTF_8)) {
            int c = b & 0xFF;
            boolean unreserved = (c >= 'a' && c <= 'z')
                    || (c >= 'A' && c <= 'Z')
                    || (c >= '0' && c <= '9')
                    || "-._~".indexOf(c) >= 0;
            if (unreserved) {
                encoded.append((char) c);
            } else {
                encoded.append('%').append(String.format("%02X", c));
            }
        }
        return encoded.toString();
    }
}
