/**
 * Leadership over a lock: {@link io.distlock.leader.LeaderElection} makes one instance of a group the leader while it
 * holds the group's lock, and tells a {@link io.distlock.leader.LeadershipListener} when it gains and loses it; the
 * Spring Boot starter turns that into {@link io.distlock.leader.LeadershipGrantedEvent} and {@link
 * io.distlock.leader.LeadershipRevokedEvent}.
 */
@NullMarked
package io.distlock.leader;

import org.jspecify.annotations.NullMarked;
