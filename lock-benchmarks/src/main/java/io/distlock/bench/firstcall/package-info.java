/**
 * What the first annotated call of a freshly started application costs against the hundredth: {@link
 * io.distlock.bench.firstcall.FirstCallMain} starts applications ({@link
 * io.distlock.bench.firstcall.FirstCallApplication}) in fresh JVMs against a standalone Redis, a Redis Cluster and a
 * Sentinel deployment, with distlock's start-up preparation off and on, and writes what each call took.
 */
@NullMarked
package io.distlock.bench.firstcall;

import org.jspecify.annotations.NullMarked;
