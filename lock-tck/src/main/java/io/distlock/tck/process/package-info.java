/**
 * What every {@link io.distlock.Lock} promises across real processes, as a suite that a backend's test extends:
 * {@link io.distlock.tck.process.ProcessContract}. Child JVMs on the test class path take the backend's lock, built
 * by a {@link io.distlock.tck.process.ProcessLockFactory} that the backend names, and are killed with {@code SIGKILL}
 * or count under it.
 *
 * <p>A child prints a ready line once it is connected; the test waits for that line with a bound that start-up on a
 * loaded machine does not run out ({@link io.distlock.tck.process.ChildJvm#LINE_WAIT}), and measures what it asserts
 * from the moment the line arrived, never from the start of the process. {@link io.distlock.tck.process.ChildJvm}
 * starts such children for other tests too.
 *
 * <p>This package depends on lock-core, the JDK, JUnit, AssertJ and Awaitility only.
 */
package io.distlock.tck.process;
