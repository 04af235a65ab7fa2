/**
 * Readying the lock before the application reports ready: its connections, scripts and subscription, and warm-up
 * calls through the annotation, so that the first caller after a deploy waits only for its key.
 */
@NullMarked
package io.distlock.autoconfigure.startup;

import org.jspecify.annotations.NullMarked;
