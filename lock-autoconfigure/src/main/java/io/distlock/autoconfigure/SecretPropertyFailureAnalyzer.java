package io.distlock.autoconfigure;

import io.distlock.autoconfigure.internal.SecretPropertyException;
import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Reports a {@link SecretPropertyException} at start-up as Spring Boot reports an invalid property, secret masked. */
final class SecretPropertyFailureAnalyzer extends AbstractFailureAnalyzer<SecretPropertyException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, SecretPropertyException cause) {
        String value = cause.getMaskedValue() == null
                ? "(not shown: it holds a secret)"
                : "'" + cause.getMaskedValue() + "' (shown with its secret masked)";
        return new FailureAnalysis(
                "Invalid value " + value + " for configuration property '" + cause.getName() + "'.\n\n"
                        + "Validation failed for the following reason:\n\n" + cause.getReason(),
                "Update your application's configuration of '" + cause.getName() + "'.",
                cause);
    }
}
