package io.distlock.autoconfigure.memory;

import io.distlock.autoconfigure.LockBackendCandidate;
import org.springframework.core.env.Environment;

/**
 * This JVM's memory, for the backend choice: lock-core brings it to every application, so it is present exactly when
 * {@code distlock.backend=in-memory} asks for it, and never chosen because nothing else is connected.
 */
final class InMemoryLockBackendCandidate implements LockBackendCandidate {

    @Override
    public String id() {
        return "in-memory";
    }

    @Override
    public String module() {
        return "lock-core";
    }

    @Override
    public String moduleClass() {
        return "io.distlock.memory.InMemoryLeaseStore";
    }

    @Override
    public String starter() {
        return "io.distlock:lock-spring-boot-starter";
    }

    /** An application may share one store between its own lock beans; otherwise the lock has a store of its own. */
    @Override
    public String connectionType() {
        return "io.distlock.memory.InMemoryLeaseStore";
    }

    @Override
    public String connectionProperty() {
        return "distlock.backend";
    }

    /** The choice looks at this backend only when the property names it, which is all it needs. */
    @Override
    public boolean hasConnectionProperty(Environment environment) {
        return true;
    }

    @Override
    public boolean chosenOnlyByName() {
        return true;
    }

    @Override
    public String configuration() {
        return "io.distlock.autoconfigure.memory.InMemoryLockConfiguration";
    }
}
