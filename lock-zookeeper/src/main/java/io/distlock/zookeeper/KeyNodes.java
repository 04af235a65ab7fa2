package io.distlock.zookeeper;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.apache.zookeeper.common.PathUtils;

/**
 * Checks the base path the keys' nodes are made under, and turns a key into one node name. The key's UTF-8 bytes are
 * percent-encoded except for a few plain ASCII characters, so the name never contains {@code /} or a character
 * ZooKeeper rejects, never is {@code .} or {@code ..}, never starts with a dot (the store's own nodes do), and two keys
 * never share a name.
 */
final class KeyNodes {

    private static final char[] HEX = "0123456789ABCDEF".toCharArray();

    private KeyNodes() {}

    /**
     * Checks a base path for the keys' nodes.
     *
     * @throws IllegalArgumentException if the path is null, not a valid ZooKeeper path, {@code /} or inside {@code
     *     /zookeeper}
     */
    static void validateBasePath(String basePath) {
        if (basePath == null) {
            throw new IllegalArgumentException("basePath must not be null");
        }
        PathUtils.validatePath(basePath);
        if (basePath.equals("/") || basePath.equals("/zookeeper") || basePath.startsWith("/zookeeper/")) {
            throw new IllegalArgumentException(
                    "basePath must not be / or inside /zookeeper, which ZooKeeper keeps for itself, but was "
                            + basePath);
        }
    }

    static void validate(String key) {
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < key.length() && Character.isLowSurrogate(key.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(
                        "key must be valid Unicode text for ZooKeeper, but has an unpaired surrogate at index " + i);
            }
        }
    }

    static String nodeName(String key) {
        ByteBuffer bytes = utf8(key);
        StringBuilder name = new StringBuilder(bytes.remaining() + 16);
        while (bytes.hasRemaining()) {
            int b = bytes.get() & 0xFF;
            if (plain(b)) {
                name.append((char) b);
            } else {
                name.append('%').append(HEX[b >> 4]).append(HEX[b & 0xF]);
            }
        }
        return name.toString();
    }

    private static boolean plain(int b) {
        return (b >= 'a' && b <= 'z')
                || (b >= 'A' && b <= 'Z')
                || (b >= '0' && b <= '9')
                || b == '-'
                || b == '_'
                || b == ':';
    }

    private static ByteBuffer utf8(String key) {
        CharsetEncoder strict = StandardCharsets.UTF_8
                .newEncoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        try {
            return strict.encode(CharBuffer.wrap(key));
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("key must be valid Unicode text for ZooKeeper", e);
        }
    }
}
