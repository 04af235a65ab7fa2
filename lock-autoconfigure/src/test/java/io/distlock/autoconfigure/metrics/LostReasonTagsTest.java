package io.distlock.autoconfigure.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.LockLostException.Reason;
import io.distlock.monitor.LockKind;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

/** Every reason a hold can be lost for, ZooKeeper's suspended connection among them, counts under a tag of its own. */
class LostReasonTagsTest {

    @Test
    void everyLossReasonIsCountedUnderItsOwnLowerCaseTag() {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        MicrometerLockObserver observer = new MicrometerLockObserver(registry, LockKeyGroups.byPrefix());

        for (Reason reason : Reason.values()) {
            observer.holdStarted("orders:1", LockKind.EXCLUSIVE, 1).lost(reason);
        }

        assertThat(registry.get(MicrometerLockObserver.LOST)
                        .tags("reason", "connection_suspended")
                        .counter()
                        .count())
                .isEqualTo(1);
        assertThat(registry.get(MicrometerLockObserver.LOST).counters()).hasSize(Reason.values().length);
    }
}
