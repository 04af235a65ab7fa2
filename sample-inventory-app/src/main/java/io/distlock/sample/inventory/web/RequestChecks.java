package io.distlock.sample.inventory.web;

import java.util.regex.Pattern;

/**
 * Checks of request values, done before any service is called: a SKU becomes part of Redis keys and lock names, so
 * only a plain form is accepted.
 */
final class RequestChecks {

    private static final Pattern SKU = Pattern.compile("[A-Za-z0-9._-]{1,64}");

    /** Large enough for any warehouse, small enough that no sum of stock can overflow. */
    static final int MAX_QUANTITY = 1_000_000_000;

    private RequestChecks() {}

    static String sku(String field, String value) {
        if (value == null) {
            throw new InvalidRequestException(field + " is required");
        }
        if (!SKU.matcher(value).matches()) {
            throw new InvalidRequestException(
                    field + " must be 1 to 64 letters, digits, '.', '_' or '-', but was \"" + value + "\"");
        }
        return value;
    }

    static int positive(String field, Integer value) {
        int quantity = required(field, value);
        if (quantity <= 0) {
            throw new InvalidRequestException(field + " must be at least 1, but was " + quantity);
        }
        return quantity;
    }

    static int notNegative(String field, Integer value) {
        int quantity = required(field, value);
        if (quantity < 0) {
            throw new InvalidRequestException(field + " must not be negative, but was " + quantity);
        }
        return quantity;
    }

    private static int required(String field, Integer value) {
        if (value == null) {
            throw new InvalidRequestException(field + " is required");
        }
        if (value > MAX_QUANTITY) {
            throw new InvalidRequestException(field + " must be at most " + MAX_QUANTITY + ", but was " + value);
        }
        return value;
    }
}
