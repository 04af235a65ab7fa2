package io.distlock.internal.path;

import io.distlock.internal.text.PrintableText;
import java.util.concurrent.CompletableFuture;

/**
 * What an asynchronous acquisition of a path answers while a scope of the calling thread holds that path or one of its
 * ancestors: a blocking acquisition would join that hold, but an asynchronous one never joins a scope, which may end
 * before the stage does, and waiting for it from inside the scope might never end. So the stage fails at once, as
 * {@link io.distlock.Lock#tryAcquireAsync} promises for a key such a scope holds.
 */
public final class ScopedPaths {

    private ScopedPaths() {}

    /**
     * A stage that has failed with {@link IllegalStateException}, naming the path and the scope's path.
     *
     * @param path the canonical path asked for
     * @param held the canonical path that the scope holds: the path itself or an ancestor
     * @param <T> the stage's type
     * @return the failed stage
     */
    public static <T> CompletableFuture<T> heldByCallersScope(String path, String held) {
        String where = path.equals(held)
                ? "path '" + PrintableText.of(path) + "' is held by a scope of the calling thread"
                : "path '" + PrintableText.of(path) + "' lies within '" + PrintableText.of(held)
                        + "', which a scope of the calling thread holds";
        return CompletableFuture.failedFuture(new IllegalStateException(where
                + ", and an asynchronous acquisition never joins that hold (the scope may end before the stage does);"
                + " waiting for it from inside the scope might never end. Acquire the path outside the scope, or pass"
                + " the scope's handle to the asynchronous work"));
    }
}
