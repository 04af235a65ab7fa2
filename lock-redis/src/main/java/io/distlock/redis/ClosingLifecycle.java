package io.distlock.redis;

import org.springframework.context.SmartLifecycle;

/**
 * A {@link SmartLifecycle} adapter for distlock components that are stopped by closing them: as Spring beans they
 * close in the phase {@link #PHASE}, after the web server stopped taking requests and before the
 * connection factory stops. There is nothing to start; distlock connects when it is first used.
 */
interface ClosingLifecycle extends SmartLifecycle, AutoCloseable {

    /**
     * The phase in which distlock's beans stop: after everything in the default phase and the web server, before
     * Spring Data Redis's connection factory (phase 0).
     */
    int PHASE = Integer.MAX_VALUE / 2;

    @Override
    void close();

    @Override
    default void start() {}

    @Override
    default void stop() {
        close();
    }

    /**
     * Not stopped when the context is only paused (Spring 7 pauses cached test contexts, and restarts them when a test
     * needs them again): closing cannot be undone, so a paused component would stay closed after the restart.
     *
     * @return false
     */
    // No @Override: Spring 6 (Boot 3.5) has no such method, and there it is simply never called.
    default boolean isPauseable() {
        return false;
    }

    @Override
    default int getPhase() {
        return PHASE;
    }
}
