package io.distlock.redis.internal.engine;

import io.distlock.redis.internal.scripts.InspectionScripts;
import java.time.Instant;
import org.jspecify.annotations.Nullable;

/**
 * How a lock key stands ({@link InspectionScripts#KEY_STATE}), as read by {@link SingleNodeCommands#inspect}.
 *
 * @param remainingMillis the remaining lease in ms; -1 without expiry, -2 if the key holds no lock
 * @param holder the holder's instance name, or null where the key names none
 * @param since when the holder took the key, on Redis's clock, or null where the key names no holder
 */
public record KeyReading(
        long remainingMillis,
        @Nullable String holder,
        @Nullable Instant since) {

    /** Decodes the inspection script's answer: remaining ms, then, where the key names a holder, since and holder. */
    static KeyReading of(Object answer) {
        if (!(answer instanceof java.util.List<?> values) || values.isEmpty()) {
            throw new IllegalStateException("expected a list from the inspection script, got " + answer);
        }
        long remaining = LockCommands.number(values.get(0));
        if (values.size() < 4 || LockCommands.text(values.get(2)).isEmpty()) {
            return new KeyReading(remaining, null, null);
        }
        String since = LockCommands.text(values.get(1));
        return new KeyReading(
                remaining,
                LockCommands.text(values.get(2)),
                since.chars().allMatch(Character::isDigit) && !since.isEmpty()
                        ? Instant.ofEpochMilli(Long.parseLong(since))
                        : null);
    }
}
