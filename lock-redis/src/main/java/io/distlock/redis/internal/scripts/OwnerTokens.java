package io.distlock.redis.internal.scripts;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.HexFormat;

/**
 * Random text for owner tokens and lock instance ids. Tokens are unguessable, all of one length, and never contain
 * {@code +}, {@code *} or {@code ~}, which {@link LockScripts} use as marks (URL-safe Base64).
 */
public final class OwnerTokens {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int TOKEN_BYTES = 16;
    /** 12 characters of text. */
    private static final int INSTANCE_ID_BYTES = 9;

    private OwnerTokens() {}

    public static String newToken() {
        return randomText(TOKEN_BYTES);
    }

    /** An id for a lock instance, which prefixes its release announcements. */
    public static String newInstanceId() {
        return randomText(INSTANCE_ID_BYTES);
    }

    /**
     * The SHA-1 of a token, in lowercase hex, as Redis's {@code redis.sha1hex} computes it: a name for the token that
     * others may see, since it gives away nothing of the token itself.
     */
    public static String digest(String token) {
        try {
            return HexFormat.of()
                    .formatHex(MessageDigest.getInstance("SHA-1").digest(token.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-1", e);
        }
    }

    private static String randomText(int bytes) {
        byte[] random = new byte[bytes];
        RANDOM.nextBytes(random);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }
}
