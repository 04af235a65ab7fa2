package io.distlock.redis;

import java.security.SecureRandom;
import java.util.Base64;

/**
 * Random text for owner tokens and lock instance ids. Tokens are unguessable, all of one length, and never contain
 * {@code +}, {@code *} or {@code ~}, which {@link LockScripts} use as marks (URL-safe Base64).
 */
final class OwnerTokens {

    private static final SecureRandom RANDOM = new SecureRandom();
    private static final int TOKEN_BYTES = 16;
    /** 12 characters of text. */
    private static final int INSTANCE_ID_BYTES = 9;

    private OwnerTokens() {}

    static String newToken() {
        return randomText(TOKEN_BYTES);
    }

    /** An id for a lock instance, which prefixes its release announcements. */
    static String newInstanceId() {
        return randomText(INSTANCE_ID_BYTES);
    }

    private static String randomText(int bytes) {
        byte[] random = new byte[bytes];
        RANDOM.nextBytes(random);
        return Base64.getUrlEncoder().withoutPadding().encodeToString(random);
    }
}
