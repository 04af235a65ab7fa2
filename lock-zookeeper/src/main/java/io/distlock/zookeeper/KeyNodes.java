package io.distlock.zookeeper;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetEncoder;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import org.apache.zookeeper.common.PathUtils;
import org.jspecify.annotations.Nullable;

/**
 * Checks the base path the keys' nodes are made under, and turns a key into one node name and back. The key's UTF-8 bytes are
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
        validate("key", key);
    }

    /**
     * Refuses text that is not valid Unicode, whose node name would be ambiguous.
     *
     * @param what what the text is, for the message, such as {@code "key"}
     * @throws IllegalArgumentException naming the unpaired surrogate's index
     */
    static void validate(String what, String text) {
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < text.length() && Character.isLowSurrogate(text.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new IllegalArgumentException(what
                        + " must be valid Unicode text for ZooKeeper, but has an unpaired surrogate at index " + i);
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

    /** The text a node name was made from by {@link #nodeName}, or null if no text makes this name. */
    static @Nullable String text(String nodeName) {
        ByteBuffer bytes = ByteBuffer.allocate(nodeName.length());
        for (int i = 0; i < nodeName.length(); i++) {
            char c = nodeName.charAt(i);
            if (c == '%' && i + 2 < nodeName.length()) {
                int high = Character.digit(nodeName.charAt(i + 1), 16);
                int low = Character.digit(nodeName.charAt(i + 2), 16);
                if (high < 0 || low < 0) {
                    return null;
                }
                bytes.put((byte) (high << 4 | low));
                i += 2;
            } else if (plain(c)) {
                bytes.put((byte) c);
            } else {
                return null;
            }
        }
        try {
            // A decoder reports malformed input by default: a name of such bytes came from no text.
            return StandardCharsets.UTF_8.newDecoder().decode(bytes.flip()).toString();
        } catch (CharacterCodingException e) {
            return null;
        }
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
