package io.distlock.autoconfigure;

import io.distlock.Lock;
import io.distlock.autoconfigure.internal.DistributedLockStartupException;
import org.springframework.beans.BeansException;
import org.springframework.beans.factory.config.BeanFactoryPostProcessor;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.core.env.Environment;

/**
 * Fails start-up, before any bean is created, when the lock's backend cannot be chosen: several are present and
 * {@code distlock.backend} names none, the backend it names is missing, or its value is not a backend. An application
 * that defines its own {@link Lock} bean is left alone.
 */
class LockBackendCheck implements BeanFactoryPostProcessor {

    private final Environment environment;

    LockBackendCheck(Environment environment) {
        this.environment = environment;
    }

    @Override
    public void postProcessBeanFactory(ConfigurableListableBeanFactory beanFactory) throws BeansException {
        if (beanFactory.getBeanNamesForType(Lock.class, true, false).length > 0) {
            return;
        }
        String problem = LockBackends.of(beanFactory, environment, beanFactory.getBeanClassLoader())
                .problem();
        if (problem != null) {
            throw new DistributedLockStartupException(
                    problem,
                    "Set distlock.backend to the backend the Lock bean is to use (docs/getting-started.md, Choosing a"
                            + " backend), or define your own io.distlock.Lock bean.");
        }
    }
}
