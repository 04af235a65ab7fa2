/**
 * For implementations of {@link io.distlock.Lock}: optional abilities of a store that the API's default methods use
 * when a lock offers them. Applications call {@link io.distlock.Lock}'s methods instead.
 */
@NullMarked
package io.distlock.spi;

import org.jspecify.annotations.NullMarked;
