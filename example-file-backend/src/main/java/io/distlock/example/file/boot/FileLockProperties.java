package io.distlock.example.file.boot;

import java.nio.file.Path;
import org.jspecify.annotations.Nullable;
import org.springframework.boot.context.properties.ConfigurationProperties;

/** Settings of the "file" backend, bound from {@code distlock.file.*}. */
@ConfigurationProperties("distlock.file")
public class FileLockProperties {

    /** Directory of the lock files, shared by every process of this machine that takes the same locks. */
    private @Nullable Path directory;

    /**
     * The directory of the lock files.
     *
     * @return the directory, or null when unset
     */
    public @Nullable Path getDirectory() {
        return directory;
    }

    /**
     * Sets the directory of the lock files.
     *
     * @param directory the directory
     */
    public void setDirectory(@Nullable Path directory) {
        this.directory = directory;
    }
}
