/**
 * A {@link io.distlock.store.LeaseStore} on Apache ZooKeeper through Curator, for {@code StoreLock}: {@link
 * io.distlock.zookeeper.ZooKeeperLeaseStore}. Waiters queue first come, first served on ephemeral sequential nodes,
 * leases run on the ZooKeeper leader's clock, fencing tokens are the holders' creation transaction ids, and a lost
 * connection or session is reported as a lost lock.
 */
@NullMarked
package io.distlock.zookeeper;

import org.jspecify.annotations.NullMarked;
