/**
 * Leadership of a group for the application, when {@code distlock.leader.group} names one: a {@link
 * io.distlock.leader.LeaderElection} started and closed with the context, whose grants and revocations are published
 * as application events.
 */
@NullMarked
package io.distlock.autoconfigure.leader;

import org.jspecify.annotations.NullMarked;
