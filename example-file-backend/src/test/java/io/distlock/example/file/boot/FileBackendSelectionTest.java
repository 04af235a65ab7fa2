package io.distlock.example.file.boot;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.autoconfigure.DistributedLockAutoConfiguration;
import io.distlock.example.file.FileLeaseStore;
import io.distlock.store.StoreLock;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * A backend of another module is chosen like distlock's own, by its id or as the only one present, through the
 * candidate in this module's {@code spring.factories}; distlock's own files name it nowhere.
 */
class FileBackendSelectionTest {

    private final ApplicationContextRunner runner = new ApplicationContextRunner()
            .withConfiguration(AutoConfigurations.of(DistributedLockAutoConfiguration.class));

    @TempDir
    Path directory;

    @Test
    void theFileBackendIsChosenByItsIdAndLocksAcrossLocksOnTheSameDirectory() {
        runner.withPropertyValues("distlock.backend=file", "distlock.file.directory=" + directory)
                .run(context -> {
                    assertThat(context).hasSingleBean(StoreLock.class);
                    Lock lock = context.getBean(Lock.class);
                    assertThat(lock.toString()).contains("FileLeaseStore[" + directory);
                    Lease lease = Lease.fixed(Duration.ofSeconds(30));
                    LockHandle held = lock.tryAcquire("stock:42", lease).orElseThrow();
                    try (StoreLock other =
                            StoreLock.builder(new FileLeaseStore(directory)).build()) {
                        assertThat(other.tryAcquire("stock:42", lease)).isEmpty();
                        held.release();
                        other.tryAcquire("stock:42", lease).orElseThrow().release();
                    }
                });
    }

    @Test
    void theFileBackendIsChosenAsTheOnlyOnePresent() {
        runner.withPropertyValues("distlock.file.directory=" + directory)
                .run(context -> assertThat(context).hasSingleBean(StoreLock.class));
    }

    @Test
    void anUnknownIdListsTheFileBackendAmongTheChoices() {
        runner.withPropertyValues("distlock.backend=files", "distlock.file.directory=" + directory)
                .run(context -> assertThat(context)
                        .getFailure()
                        .hasStackTraceContaining("distlock.backend=files is not a distlock backend")
                        .hasStackTraceContaining("distlock.backend=redis|jdbc|zookeeper|in-memory|file"));
    }
}
