package io.distlock.tck.contract;

import static io.distlock.tck.contract.ContractTimes.LONG;
import static io.distlock.tck.contract.ContractTimes.LONG_LEASE;
import static io.distlock.tck.contract.ContractTimes.SHORT_WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.distlock.Kind;
import io.distlock.Lock;
import io.distlock.LockHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a fair lock promises ({@link Kind#FAIR}): it holds the same keys as the lock it came from, its waiters get the
 * key when it is released, a waiter that gave up holds no one up, and the waiters of every client are served in the
 * order they arrived. {@link LockContract} runs it for each implementation whose clients offer a fair lock; elsewhere
 * its cases are skipped. The order needs to know when a waiter has its place, which only the backend's test can tell
 * ({@link #waitingInFairQueue(String)}); where it cannot, that case is skipped.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
@SuppressWarnings("try") // a waiter holds its turn in a try-with-resources block that never names it
public interface FairContract extends ContractSubject {

    /**
     * How many acquisitions of the fair lock wait in the key's queue in the store, for the case on arrival order; empty
     * where the backend's test cannot tell, which skips that case.
     *
     * @param key the key
     * @return the number of waiters in the key's queue, or empty
     * @throws Exception if the store could not be read
     */
    default OptionalInt waitingInFairQueue(String key) throws Exception {
        return OptionalInt.empty();
    }

    /**
     * A connected client's fair lock, skipping the case where the client offers none.
     *
     * @return the fair lock
     */
    private Lock fairClient() {
        Lock client = connectedClient();
        Optional<Lock> fair = client.kind(Kind.FAIR);
        assumeTrue(fair.isPresent(), client + " offers no fair lock");
        return fair.get();
    }

    @Test
    default void aFairHoldAndAHoldOfTheLockItCameFromExcludeEachOther() throws Exception {
        String key = key("fair");
        LockHandle fairHeld = fairClient().tryAcquire(key, LONG_LEASE).orElseThrow();
        Lock plain = connectedClient();
        assertThat(plain.tryAcquire(key, LONG_LEASE))
                .as("refused while a fair hold has the key")
                .isEmpty();
        fairHeld.release();

        LockHandle plainHeld = plain.tryAcquire(key, LONG_LEASE).orElseThrow();
        assertThat(fairClient().tryAcquire(key, LONG_LEASE))
                .as("refused while a plain hold has the key")
                .isEmpty();
        assertThat(plainHeld.fencingToken()).isGreaterThan(fairHeld.fencingToken());
        plainHeld.release();
    }

    @Test
    default void aFairWaiterThatGaveUpHoldsUpNoOneBehindIt() throws Exception {
        String key = key("fair");
        LockHandle held = fairClient().tryAcquire(key, LONG_LEASE).orElseThrow();
        Lock quitter = fairClient();
        assertThat(quitter.tryAcquire(key, LONG_LEASE, SHORT_WAIT))
                .as("gave up")
                .isEmpty();
        Lock next = fairClient();
        Future<Optional<LockHandle>> waiting = contractThreads().submit(() -> next.tryAcquire(key, LONG_LEASE, LONG));
        await().during(SHORT_WAIT).atMost(Duration.ofSeconds(5)).until(() -> !waiting.isDone());

        long released = System.nanoTime();
        held.release();

        LockHandle taken = waiting.get(LONG.toSeconds(), TimeUnit.SECONDS).orElseThrow();
        assertThat(Duration.ofNanos(System.nanoTime() - released))
                .as("got the key long before its wait of %s ended", LONG)
                .isLessThan(LONG.dividedBy(2));
        assertThat(taken.fencingToken()).isGreaterThan(held.fencingToken());
        taken.release();
    }

    @Test
    default void fairWaitersOfSeveralClientsGetTheKeyInTheOrderTheyArrived() throws Exception {
        String key = key("fair");
        LockHandle held = fairClient().tryAcquire(key, LONG_LEASE).orElseThrow();
        assumeTrue(waitingInFairQueue(key).isPresent(), "the backend's test cannot tell who waits in the queue");
        List<Integer> order = new CopyOnWriteArrayList<>();
        List<Future<?>> turns = new ArrayList<>();
        int before = waitingInFairQueue(key).getAsInt();
        for (int arrival = 1; arrival <= 4; arrival++) {
            int waiter = arrival;
            Lock fair = fairClient();
            turns.add(contractThreads().submit(() -> {
                try (LockHandle turn = fair.acquire(key, LONG_LEASE)) {
                    order.add(waiter);
                }
                return null;
            }));
            await().atMost(Duration.ofSeconds(20))
                    .until(() -> waitingInFairQueue(key).getAsInt() == before + waiter);
        }

        held.release();
        for (Future<?> turn : turns) {
            turn.get(LONG.toSeconds(), TimeUnit.SECONDS);
        }
        assertThat(order).containsExactly(1, 2, 3, 4);
    }
}
