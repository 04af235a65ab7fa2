package io.distlock.redis.internal.waiting;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Release signals under many waiters of one key, as the waiters of one tree of path locks are. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class ReleaseSignalsTest {

    @Test
    void aWaiterRegisteredWhileOthersComeAndGoIsAlwaysWokenByTheNextRelease() throws Exception {
        ReleaseSignals signals = new ReleaseSignals();
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> churn = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            Thread thread = new Thread(() -> {
                while (!stop.get()) {
                    signals.forget("tree", signals.next("tree"));
                }
            });
            thread.start();
            churn.add(thread);
        }
        int missed = 0;
        int rounds = 0;
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        try {
            while (System.nanoTime() - end < 0) {
                CompletableFuture<Void> waiter = signals.next("tree");
                signals.released("tree");
                if (!waiter.isDone()) {
                    missed++;
                }
                signals.forget("tree", waiter);
                rounds++;
            }
        } finally {
            stop.set(true);
            for (Thread thread : churn) {
                thread.join(5000);
            }
        }

        assertThat(rounds).isPositive();
        assertThat(missed)
                .as("waiters not woken by a release after they registered, of %d", rounds)
                .isZero();
    }
}
