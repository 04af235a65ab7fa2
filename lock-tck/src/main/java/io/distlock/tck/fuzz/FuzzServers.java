package io.distlock.tck.fuzz;

import java.util.List;
import java.util.stream.IntStream;

/**
 * Where a fuzz run keeps its locks, as the parent JVM sees them: wherever the run's {@link FuzzLockFactory} connects
 * to. The checker's records need no server: they are kept by the run's witness, in the parent JVM, which no fault done
 * to the lock's servers touches.
 */
public interface FuzzServers {

    /**
     * Where the locks are, passed to every worker's factory ({@link FuzzTarget#address()}).
     *
     * @return the address, in the form the factory takes
     */
    String lockAddress();

    /**
     * The servers, in a few words, for the run's report.
     *
     * @return the description
     */
    String description();

    /**
     * Names for a run's lock keys. Any names do unless the lock's servers divide keys among themselves, as a cluster
     * does; by default {@code key0}, {@code key1}, ...
     *
     * @param lockPrefix the run's key prefix ({@link FuzzTarget#keyPrefix()}), which may decide where a key is kept
     * @param count how many names
     * @return the names
     */
    default List<String> keyNames(String lockPrefix, int count) {
        return IntStream.range(0, count).mapToObj(i -> "key" + i).toList();
    }

    /**
     * The server that holds a key's lock when the run begins, for the report; by default the {@link #description()}.
     *
     * @param lockPrefix the run's key prefix
     * @param keyName one of the run's key names
     * @return the server, in a few words
     */
    default String servedBy(String lockPrefix, String keyName) {
        return description();
    }

    /**
     * Locks in a store of the factory's, at one address.
     *
     * @param address where the store is, in the form the run's factory takes
     * @param store what the store is, for the report, such as {@code PostgreSQL :5432}
     * @return the servers
     */
    static FuzzServers store(String address, String store) {
        return new FuzzServers() {
            @Override
            public String lockAddress() {
                return address;
            }

            @Override
            public String description() {
                return store;
            }

            @Override
            public String servedBy(String lockPrefix, String keyName) {
                return store;
            }
        };
    }
}
