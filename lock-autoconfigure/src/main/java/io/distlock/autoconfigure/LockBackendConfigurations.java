package io.distlock.autoconfigure;

import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanClassLoaderAware;
import org.springframework.context.annotation.ImportSelector;
import org.springframework.core.type.AnnotationMetadata;

/**
 * Imports the configuration of every {@link LockBackendCandidate}, by name, so that {@link
 * DistributedLockAutoConfiguration} names no backend. Each configuration switches itself off when its module is
 * missing or its backend is not chosen.
 */
class LockBackendConfigurations implements ImportSelector, BeanClassLoaderAware {

    private @Nullable ClassLoader classLoader;

    @Override
    public void setBeanClassLoader(ClassLoader classLoader) {
        this.classLoader = classLoader;
    }

    @Override
    public String[] selectImports(AnnotationMetadata importingClassMetadata) {
        return LockBackends.candidates(classLoader).stream()
                .map(LockBackendCandidate::configuration)
                .toArray(String[]::new);
    }
}
