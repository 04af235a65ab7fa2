/**
 * Text that distlock prints in messages and logs: control characters escaped, and secrets never echoed.
 *
 * <p>Internal: public only so that distlock's modules can reach it. Nothing here is a promise; it may change in any
 * release.
 */
@NullMarked
package io.distlock.internal.text;

import org.jspecify.annotations.NullMarked;
