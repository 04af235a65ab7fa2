package io.distlock.autoconfigure.memory;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.context.ApplicationListener;
import org.springframework.core.env.Environment;

/**
 * Says at start-up that the lock is in this JVM's memory: at INFO for a test or a command-line run, and as a warning
 * when the application runs a web server, since a served application is usually one of several instances, which such a
 * lock does not exclude from each other.
 */
final class InMemoryLockWarning implements ApplicationListener<ApplicationStartedEvent> {

    private static final Logger log = LoggerFactory.getLogger(InMemoryLockWarning.class);

    /** Set by Spring Boot once its embedded web server listens, on every Boot line distlock supports. */
    private static final String SERVER_PORT = "local.server.port";

    private final Environment environment;

    InMemoryLockWarning(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void onApplicationEvent(ApplicationStartedEvent event) {
        String port = environment.getProperty(SERVER_PORT);
        String lock = "distlock.backend=in-memory: distlock's lock keeps its leases in this JVM's memory and excludes"
                + " nothing across processes";
        if (port == null) {
            log.info("{}; it is meant for tests and local runs", lock);
            return;
        }
        log.warn(
                "{}, yet this application serves requests on port {}. Every other instance of it runs the same locked"
                        + " work at the same time. For more than one instance, choose a shared store with"
                        + " distlock.backend=redis, jdbc or zookeeper",
                lock,
                port);
    }
}
