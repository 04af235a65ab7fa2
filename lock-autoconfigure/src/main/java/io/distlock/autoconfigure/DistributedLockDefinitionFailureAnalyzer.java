package io.distlock.autoconfigure;

import io.distlock.annotation.DistributedLockDefinitionException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a {@link DistributedLockDefinitionException}, an annotation that cannot work as written, in Spring Boot's
 * words: the method and what is wrong with its annotation, and that the annotation is what to change.
 */
final class DistributedLockDefinitionFailureAnalyzer
        extends AbstractFailureAnalyzer<DistributedLockDefinitionException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, DistributedLockDefinitionException cause) {
        return new FailureAnalysis(
                cause.getMessage(),
                "Change the @DistributedLock annotation of that method as the description says; distlock checks every"
                        + " annotated method when its bean is created, so that none runs without the lock it asked"
                        + " for.",
                cause);
    }
}
