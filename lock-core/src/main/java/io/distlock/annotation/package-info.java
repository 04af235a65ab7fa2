/**
 * The machinery behind {@link io.distlock.DistributedLock @DistributedLock}: the advisor and interceptor that take the
 * lock around an annotated method, and the start-up checks of every annotation. The Spring Boot starter registers
 * them; applications use the annotation, not these classes.
 */
@NullMarked
package io.distlock.annotation;

import org.jspecify.annotations.NullMarked;
