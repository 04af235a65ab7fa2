package io.distlock.tck.fuzz;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.Objects;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A {@link LockView} that reads a key's holder and lease end from the store (a database, ZooKeeper, a Redis, a store
 * of one's own) with one call that may fail. A read that fails, as while the store fails over or the machine is busy,
 * is repeated until it answers; after the view's patience the key is {@link Unreadable}, and its section goes unchecked
 * rather than judged on a guess.
 */
public abstract class ReadBeforeLockView implements LockView {

    private static final Duration RETRY_INTERVAL = Duration.ofMillis(50);

    private final Duration patience;

    /**
     * A view that repeats failed reads for up to {@code patience}.
     *
     * @param patience how long a read may keep failing before the key counts as unreadable; longer than the store
     *     takes to come back from what the run does to it, shorter than the workers' grace after a run
     */
    protected ReadBeforeLockView(Duration patience) {
        this.patience = patience;
    }

    @Override
    public final HolderRead read(String lockKey, String ownerToken) {
        try {
            return readHolder(lockKey, ownerToken);
        } catch (Exception first) {
            try {
                return await().atMost(patience)
                        .pollInterval(RETRY_INTERVAL)
                        .pollInSameThread()
                        .ignoreExceptions()
                        .until(() -> readHolder(lockKey, ownerToken), Objects::nonNull);
            } catch (ConditionTimeoutException e) {
                throw new Unreadable(lockKey, first);
            }
        }
    }

    /**
     * Reads the key's holder from the store, judging its lease by the store's clock.
     *
     * @param lockKey the lock key, as the lock under test names it
     * @param ownerToken the owner token of the section the read is for
     * @return {@link HolderRead#none()}, or the holder and its lease end in ms since the epoch by a clock of the same
     *     host as the witness, so that the witness compares it with its own
     * @throws Exception if the store did not answer; the read is then repeated
     */
    protected abstract HolderRead readHolder(String lockKey, String ownerToken) throws Exception;
}
