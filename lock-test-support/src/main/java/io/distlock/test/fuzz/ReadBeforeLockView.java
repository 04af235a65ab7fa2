package io.distlock.test.fuzz;

import static org.awaitility.Awaitility.await;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import org.awaitility.core.ConditionTimeoutException;

/**
 * A {@link LockView} of a lock kept outside the checker's Redis (a database, ZooKeeper, a store of one's own): it reads
 * a key's holder and lease end from the store just before each judgement ({@link #READ_BEFORE_PRELUDE}). A read that
 * fails, as while the store fails over or the machine is busy, is repeated until it answers; after the view's patience
 * the key is {@link Unreadable}, and its section goes unchecked rather than judged on a guess.
 */
public abstract class ReadBeforeLockView implements LockView {

    /** What {@link #readHolder} returns for a key that has no holder, or one whose lease has run out. */
    protected static final List<String> NO_HOLDER = List.of("", "-1");

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
    public final String prelude() {
        return READ_BEFORE_PRELUDE;
    }

    @Override
    public final List<String> keys(String lockKey) {
        return List.of();
    }

    @Override
    public final List<String> args(String lockKey) {
        try {
            return readHolder(lockKey);
        } catch (Exception first) {
            try {
                return await().atMost(patience)
                        .pollInterval(RETRY_INTERVAL)
                        .pollInSameThread()
                        .ignoreExceptions()
                        .until(() -> readHolder(lockKey), Objects::nonNull);
            } catch (ConditionTimeoutException e) {
                throw new Unreadable(lockKey, first);
            }
        }
    }

    /**
     * Reads the key's holder from the store, judging its lease by the store's clock.
     *
     * @param lockKey the lock key, as the lock under test names it
     * @return {@link #NO_HOLDER}, or {@link #holder} of the owner token and the lease's end
     * @throws Exception if the store did not answer; the read is then repeated
     */
    protected abstract List<String> readHolder(String lockKey) throws Exception;

    /**
     * A read holder.
     *
     * @param ownerToken the holder's owner token, as the store keeps it
     * @param leaseEndMillis when its lease ends, in ms since the epoch by a clock of the same host as the checker's
     *     Redis, so that the checker compares it with its own
     * @return the view's arguments for that holder
     */
    protected static List<String> holder(String ownerToken, long leaseEndMillis) {
        return List.of(ownerToken, Long.toString(leaseEndMillis));
    }
}
