package io.distlock.autoconfigure.jdbc;

import org.jspecify.annotations.Nullable;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * Puts lock-jdbc's schema scripts into a native image, which {@code distlock.jdbc.create-table=true} reads as
 * resources at start-up to create the lock table.
 */
class JdbcSchemaHints implements RuntimeHintsRegistrar {

    @Override
    public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
        hints.resources().registerPattern("io/distlock/jdbc/schema-*.sql");
    }
}
