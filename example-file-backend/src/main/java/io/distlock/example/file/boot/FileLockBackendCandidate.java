package io.distlock.example.file.boot;

import io.distlock.autoconfigure.LockBackendCandidate;

/**
 * The "file" backend, for distlock's backend choice: present when this module is on the class path and the
 * application sets {@code distlock.file.directory} or has a {@code FileLeaseStore} bean. Listed in this module's own
 * {@code META-INF/spring.factories}.
 */
public final class FileLockBackendCandidate implements LockBackendCandidate {

    @Override
    public String id() {
        return "file";
    }

    @Override
    public String module() {
        return "example-file-backend";
    }

    @Override
    public String moduleClass() {
        return "io.distlock.example.file.FileLeaseStore";
    }

    @Override
    public String starter() {
        return "io.distlock:example-file-backend";
    }

    @Override
    public String connectionType() {
        return "io.distlock.example.file.FileLeaseStore";
    }

    @Override
    public String connectionProperty() {
        return "distlock.file.directory";
    }

    @Override
    public String configuration() {
        return "io.distlock.example.file.boot.FileLockConfiguration";
    }
}
