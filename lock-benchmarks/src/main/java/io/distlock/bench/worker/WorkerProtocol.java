package io.distlock.bench.worker;

/**
 * The lines a parent and its worker processes exchange. The parent writes commands to the worker's standard input;
 * the worker answers on standard output with lines that start with {@value #ANSWER}, so that anything a library might
 * print there is ignored.
 */
final class WorkerProtocol {

    static final String RUN = "RUN ";
    static final String EXIT = "EXIT";

    static final String ANSWER = "@@";
    static final String READY = ANSWER + "READY";
    static final String RESULT = ANSWER + "RESULT ";
    static final String ERROR = ANSWER + "ERROR ";
    /** Put in the parent's queue, never sent: the worker's output ended. */
    static final String ENDED = ANSWER + "ENDED";

    private WorkerProtocol() {}
}
