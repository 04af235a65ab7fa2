package io.distlock.bench.worker;

/**
 * A worker process that failed, exited or did not answer in time. Its message tells the whole story with the end of
 * the worker's log; {@link #reason()} is the short form for a results table.
 */
public final class WorkerFailedException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    private final String reason;

    WorkerFailedException(String reason, String message) {
        super(message);
        this.reason = reason;
    }

    /**
     * What went wrong, in one line: the worker's own error, or that it exited or stayed silent.
     *
     * @return the reason
     */
    public String reason() {
        return reason;
    }
}
