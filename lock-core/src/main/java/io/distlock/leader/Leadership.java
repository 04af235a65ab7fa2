package io.distlock.leader;

/**
 * One term of an instance as the leader of its group: from the grant of the group's lock to its revocation.
 *
 * @param group the group the instance leads
 * @param fencingToken the fencing token of the lock this term holds: higher than that of every earlier term of the
 *     group, so a store that remembers the highest token it saw can refuse a former leader's late writes
 */
public record Leadership(String group, long fencingToken) {}
