package io.distlock.autoconfigure;

import io.distlock.autoconfigure.internal.DistributedLockStartupException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Reports a {@link DistributedLockStartupException} in Spring Boot's words: its description and action, instead of a
 * stack trace of nested bean creation failures.
 */
final class DistributedLockFailureAnalyzer extends AbstractFailureAnalyzer<DistributedLockStartupException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, DistributedLockStartupException cause) {
        return new FailureAnalysis(cause.description(), cause.action(), cause);
    }
}
