/**
 * The start-up exceptions that distlock's failure analyzers turn into Spring Boot's "Description / Action" report,
 * and the locked method that the start-up preparation warms up through.
 *
 * <p>Internal: public only so that the auto-configuration's packages can throw and call them. Nothing here is a
 * promise; it may change in any release.
 */
@NullMarked
package io.distlock.autoconfigure.internal;

import org.jspecify.annotations.NullMarked;
