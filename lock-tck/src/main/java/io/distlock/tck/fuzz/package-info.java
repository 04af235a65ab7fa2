/**
 * The cross-process mutual-exclusion fuzz, for any {@link io.distlock.Lock}: worker JVMs drive the lock with every
 * operation of its API while an independent checker records each critical section and catches overlaps, locks taken
 * before their lease ended and fencing tokens out of order. The checker needs no server: its witness keeps the records
 * and judges them in the JVM that starts the run, by that JVM's clock, and the workers reach it over a loopback socket,
 * each judgement with the state of the section's lock key read just before through the lock's {@link
 * io.distlock.tck.fuzz.LockView}.
 *
 * <p>A backend plugs its lock in with a {@link io.distlock.tck.fuzz.FuzzLockFactory}, which builds the lock and the
 * {@link io.distlock.tck.fuzz.LockView} the checker reads it through in every worker, and runs it from its tests
 * through {@link io.distlock.tck.fuzz.MutualExclusionFuzz}; a {@code StoreLock} backend needs no more than its
 * {@code LeaseStore} and a view ({@link io.distlock.tck.fuzz.FuzzLock#storeLock}). The workers run on the test class
 * path of the module that starts the run, where they find the factory. A test JVM starts its worker JVMs once and
 * keeps them for its later runs, each of which hands its settings to as many workers as it needs; a worker whose run
 * went wrong is killed, and the next run starts a fresh one.
 */
package io.distlock.tck.fuzz;
