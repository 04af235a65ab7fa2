/**
 * The {@link io.distlock.Lock} bean in this JVM's memory, chosen with {@code distlock.backend=in-memory}, for tests and
 * local runs.
 */
@NullMarked
package io.distlock.autoconfigure.memory;

import org.jspecify.annotations.NullMarked;
