package io.distlock.autoconfigure;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.autoconfigure.internal.SecretPropertyException;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** The start-up report of a property that holds a secret: the property and the reason, the value only masked. */
class SecretPropertyFailureAnalyzerTest {

    private final SecretPropertyFailureAnalyzer analyzer = new SecretPropertyFailureAnalyzer();

    @Test
    void namesThePropertyAndTheReasonAndShowsTheValueMasked() {
        FailureAnalysis analysis = analyzer.analyze(new BeanCreationException(
                "distlockRedlockNodes",
                new SecretPropertyException("distlock.redlock.nodes[0].url", "redis://******@redis-a", "must be...")));

        assertThat(analysis.getDescription())
                .contains("Invalid value 'redis://******@redis-a' (shown with its secret masked)")
                .contains("for configuration property 'distlock.redlock.nodes[0].url'")
                .contains("must be...");
        assertThat(analysis.getAction()).contains("distlock.redlock.nodes[0].url");
    }

    @Test
    void aValueThatCannotBeMaskedIsNotShownAtAll() {
        FailureAnalysis analysis = analyzer.analyze(
                new SecretPropertyException("distlock.zookeeper.authorization.credentials", null, "must be..."));

        assertThat(analysis.getDescription()).contains("Invalid value (not shown: it holds a secret)");
    }
}
