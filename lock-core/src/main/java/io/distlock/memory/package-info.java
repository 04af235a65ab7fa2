/**
 * A store in the JVM's own memory, {@link io.distlock.memory.InMemoryLeaseStore}, for tests and local runs that need
 * the {@link io.distlock.Lock} API without a server: its locks exclude each other within one process only.
 */
@NullMarked
package io.distlock.memory;

import org.jspecify.annotations.NullMarked;
