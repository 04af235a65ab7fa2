package io.distlock.sample.inventory.web;

/** A request that cannot be carried out as written; answered with 400 and nothing is changed. */
public class InvalidRequestException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    InvalidRequestException(String message) {
        super(message);
    }
}
