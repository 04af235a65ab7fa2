/**
 * The rules of the paths of path locks, which every backend shares: how a path is parsed into segments, which paths
 * and tree names are allowed, and the one order in which several paths are taken.
 *
 * <p>Internal: public only so that distlock's modules can reach it. Nothing here is a promise; it may change in any
 * release.
 */
@NullMarked
package io.distlock.internal.path;

import org.jspecify.annotations.NullMarked;
