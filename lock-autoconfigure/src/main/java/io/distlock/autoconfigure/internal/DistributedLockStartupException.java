package io.distlock.autoconfigure.internal;

/**
 * Why the application cannot start with distlock as it is configured: annotated methods that would find no lock, a
 * lock backend that cannot be chosen, or a lock table that cannot be used. Its message is the description followed by the action; Spring Boot's start-up
 * report shows the two apart ("Description", "Action").
 */
public final class DistributedLockStartupException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String description;
    private final String action;

    /**
     * Creates the exception.
     *
     * @param description what is wrong, naming the methods, beans or properties concerned
     * @param action what to do about it
     */
    public DistributedLockStartupException(String description, String action) {
        super(description + " " + action);
        this.description = description;
        this.action = action;
    }

    /**
     * Creates the exception for a failure of the store or of another library.
     *
     * @param description what is wrong, naming the tables, beans or properties concerned
     * @param action what to do about it
     * @param cause the failure that showed it
     */
    public DistributedLockStartupException(String description, String action, Throwable cause) {
        super(description + " " + action, cause);
        this.description = description;
        this.action = action;
    }

    /**
     * What is wrong.
     *
     * @return the description, naming the methods, beans or properties concerned
     */
    public String description() {
        return description;
    }

    /**
     * What to do about it.
     *
     * @return the action
     */
    public String action() {
        return action;
    }
}
