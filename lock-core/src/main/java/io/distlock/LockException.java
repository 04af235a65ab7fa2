package io.distlock;

import io.distlock.internal.text.PrintableText;
import org.jspecify.annotations.Nullable;

/** The root of the unchecked exceptions that distlock throws about a named lock. */
public abstract class LockException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String key;

    /**
     * Creates an exception about one lock.
     *
     * @param key the lock's key, as the application named it
     * @param message what happened, naming the key; its control characters, as in a key from a request, are escaped
     *     ({@link PrintableText})
     * @param cause the underlying failure, or null
     */
    protected LockException(String key, String message, @Nullable Throwable cause) {
        // Keys often come from requests: escaped, a key with a line break cannot forge a line of the log it goes to.
        super(PrintableText.of(message), cause);
        this.key = key;
    }

    /**
     * The key of the lock this exception is about.
     *
     * @return the key as the application named it, without any prefix
     */
    public String key() {
        return key;
    }
}
