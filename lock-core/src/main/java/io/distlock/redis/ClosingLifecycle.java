package io.distlock.redis;

import org.springframework.context.SmartLifecycle;

/**
 * A {@link SmartLifecycle} adapter for distlock components that are stopped by closing them: as Spring beans they
 * close in the phase {@link RedisLock#LIFECYCLE_PHASE}, after the web server stopped taking requests and before the
 * connection factory stops. There is nothing to start; distlock connects when it is first used.
 */
interface ClosingLifecycle extends SmartLifecycle, AutoCloseable {

    @Override
    void close();

    @Override
    default void start() {}

    @Override
    default void stop() {
        close();
    }

    @Override
    default int getPhase() {
        return RedisLock.LIFECYCLE_PHASE;
    }
}
