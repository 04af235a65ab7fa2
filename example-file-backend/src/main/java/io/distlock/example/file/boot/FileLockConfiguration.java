package io.distlock.example.file.boot;

import io.distlock.Lock;
import io.distlock.autoconfigure.ConditionalOnLockBackend;
import io.distlock.autoconfigure.DistributedLockProperties;
import io.distlock.autoconfigure.StoreLocks;
import io.distlock.example.file.FileLeaseStore;
import io.distlock.monitor.LockObserver;
import io.distlock.store.StoreLock;
import java.nio.file.Path;
import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * The {@link Lock} bean on the "file" backend: a {@link StoreLock} over the application's {@link FileLeaseStore}
 * bean, or over one on {@code distlock.file.directory}, with the watchdog, shutdown and observers every backend shares.
 * distlock's auto-configuration imports it through {@link FileLockBackendCandidate}, and builds it only when the
 * backend choice chose "file".
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnClass(FileLeaseStore.class)
@EnableConfigurationProperties(FileLockProperties.class)
public class FileLockConfiguration {

    /** The lock, when the backend choice chose this backend. */
    @Configuration(proxyBeanMethods = false)
    @ConditionalOnLockBackend("file")
    static class StoreLockConfiguration {

        @Bean
        @ConditionalOnMissingBean(Lock.class)
        StoreLock distlockLock(
                ObjectProvider<FileLeaseStore> stores,
                FileLockProperties file,
                DistributedLockProperties properties,
                ObjectProvider<LockObserver> observers) {
            return StoreLocks.build(
                    stores.getIfAvailable(() -> new FileLeaseStore(directory(file))), properties, observers);
        }

        private static Path directory(FileLockProperties file) {
            Path directory = file.getDirectory();
            if (directory == null) {
                throw new InvalidConfigurationPropertyValueException(
                        "distlock.file.directory", null, "must name the directory of the lock files");
            }
            return directory;
        }
    }
}
