package io.distlock.spi;

import io.distlock.Lock;
import java.util.Collection;
import java.util.List;

/**
 * Implemented by a {@link Lock} whose keys can conflict without being equal, such as paths, whose ancestors and
 * descendants conflict. {@link Lock#tryAcquireAll}, {@link Lock#acquireAll} and {@link Lock#callWithLocks} take several
 * keys one by one in one global order, so that no two callers each hold a key the other waits for; with such keys the
 * keys' natural order cannot give that, and this lock's own order does. For lock implementations; applications call
 * {@link Lock}'s methods.
 */
public interface KeyOrder {

    /**
     * The keys, each once, in the order every caller takes them.
     *
     * @param keys the keys as the caller gave them; two spellings of one key count once, under the first spelling
     * @return the keys, each once, in their global order
     * @throws IllegalArgumentException naming the problem if the collection is null or empty, a key is invalid, or two
     *     keys conflict with each other, so that taking the second would wait for the first forever
     */
    List<String> order(Collection<String> keys);
}
