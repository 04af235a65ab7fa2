package io.distlock.test.fuzz;

import java.util.List;

/**
 * Where the checker's scripts learn the state of a lock key: its holder and remaining lease, {@code holder} and {@code
 * ttl} as {@code GET} and {@code PTTL} would give them, which every judgement of the checker starts from. A lock kept
 * on the checker's own Redis lets the scripts read the key themselves, atomically with their judgement; a lock kept
 * anywhere else is read just before, through the view's own connection, and its holder and lease end passed to the
 * scripts as arguments ({@link #READ_BEFORE_PRELUDE}).
 */
public interface LockView {

    /**
     * The prelude of every view that reads the lock's state just before the judgement: the script's last two arguments
     * are the holder as read ({@code ''} if none) and when its lease ends, in ms since the epoch by a clock of the same
     * host as the checker's Redis ({@code -1}: never). Such a view's {@link #keys} are none and its {@link #args} those
     * two. A read whose lease, as read, has 2 ms or less left for the section's own holder is stale: the script then
     * answers {@code -2} and the checker reads again.
     */
    String READ_BEFORE_PRELUDE = """
            -- The last two arguments: the lock key's value ('' if gone) and its lease's end, read just before.
            local clock = redis.call('time')
            local ttl_at = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
            local holder, ttl = false, -2
            local read_holder, lease_end = ARGV[#ARGV - 1], tonumber(ARGV[#ARGV])
            if read_holder ~= '' then
              holder, ttl = read_holder, -1
              if lease_end >= 0 then
                ttl = lease_end - ttl_at
                -- Only the section's own lease matters; another holder's is never judged by its length.
                if ttl <= 2 and string.sub(holder, 1, #ARGV[1]) == ARGV[1] then
                  return -2
                end
              end
            end
            """;

    /**
     * Lua that defines the locals {@code holder} (false if the key is gone), {@code ttl}, and {@code ttl_at}, the
     * checker's Redis time (ms) from which the ttl counts, for the script after, whose first argument is the section's
     * owner token. Claims end at the absolute time {@code ttl_at + ttl - 2}, so a script that Redis runs slowly does
     * not stretch them past the lease. A holder matches a section if it begins with the section's owner token.
     *
     * @return the prelude
     */
    String prelude();

    /**
     * Keys the prelude reads, passed after the checker's own.
     *
     * @param lockKey the lock key, as the lock under test names it ({@link LockUnderTest.LockKeys})
     * @return the keys, none for a view that reads before
     */
    List<String> keys(String lockKey);

    /**
     * Arguments the prelude reads, passed after the checker's own.
     *
     * @param lockKey the lock key, as the lock under test names it ({@link LockUnderTest.LockKeys})
     * @return the arguments
     * @throws Unreadable if the lock key could not be read
     */
    List<String> args(String lockKey);

    /** What a view's reads met, counted for the run's report. */
    interface Counts {

        /** A read did not answer at first, as while a server fails over, and was repeated until it did. */
        void readWaited();

        /** One of several nodes did not answer a read, and counted as possibly holding the key for anyone. */
        void nodeUnanswered();
    }

    /**
     * The lock key could not be read from the store that holds the locks, even after waiting as long as a failover
     * takes: the section goes unchecked from there on. Not a failure of the checker, whose own records stay complete.
     */
    final class Unreadable extends RuntimeException {

        private static final long serialVersionUID = 1L;

        /**
         * The read of {@code lockKey} failed with {@code cause}.
         *
         * @param lockKey the lock key
         * @param cause the first failure of its reads
         */
        public Unreadable(String lockKey, Throwable cause) {
            super("the checker could not read lock key " + lockKey + ": " + cause.getMessage(), cause);
        }
    }
}
