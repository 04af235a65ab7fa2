package io.distlock.autoconfigure.internal;

import org.jspecify.annotations.Nullable;

/**
 * An invalid value of a property that holds a secret, such as a URL with a password or ZooKeeper credentials: fails
 * start-up naming the property and what is allowed, showing the value only with its secret masked, or not at all.
 *
 * <p>Not an {@code InvalidConfigurationPropertyValueException}: Spring Boot's report of that one quotes the value it
 * finds for the property in the environment, secret and all. distlock's {@code SecretPropertyFailureAnalyzer} reports
 * this one.
 */
public class SecretPropertyException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String name;
    private final @Nullable String maskedValue;
    private final String reason;

    /**
     * Creates the exception.
     *
     * @param name the property, such as {@code distlock.redlock.nodes[0].url}
     * @param maskedValue the value with its secret masked, or null to show nothing of it
     * @param reason what is wrong and what is allowed, without the secret
     */
    public SecretPropertyException(String name, @Nullable String maskedValue, String reason) {
        super("Property " + name
                + (maskedValue == null ? " (its value not shown)" : " with value '" + maskedValue + "'")
                + " is invalid: " + reason);
        this.name = name;
        this.maskedValue = maskedValue;
        this.reason = reason;
    }

    /**
     * The property.
     *
     * @return its name, such as {@code distlock.redlock.nodes[0].url}
     */
    public String getName() {
        return name;
    }

    /**
     * The value as it may be shown.
     *
     * @return the value with its secret masked, or null if nothing of it may be shown
     */
    public @Nullable String getMaskedValue() {
        return maskedValue;
    }

    /**
     * What is wrong.
     *
     * @return what is wrong with the value and what is allowed, without the secret
     */
    public String getReason() {
        return reason;
    }
}
