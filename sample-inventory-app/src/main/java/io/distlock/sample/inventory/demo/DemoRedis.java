package io.distlock.sample.inventory.demo;

import java.util.List;

/**
 * The throwaway Redis that the demo started for its instances.
 *
 * @param description what was started and where, for the demo's output
 * @param instanceArguments the command-line arguments that point an instance at it
 * @param stop stops it; running it again does nothing
 */
record DemoRedis(String description, List<String> instanceArguments, Runnable stop) implements AutoCloseable {

    DemoRedis {
        instanceArguments = List.copyOf(instanceArguments);
    }

    @Override
    public void close() {
        stop.run();
    }
}
