package io.distlock.redis.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import io.distlock.tck.fuzz.HolderRead;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The Redlock view's count of a majority, from what each of three nodes answered, without a server. */
class RedlockLockViewTest {

    private static final long NOW = 1_000_000;

    @Test
    void theSectionsOwnMajorityLastsAsLongAsItsQuorumThLatestLease() {
        HolderRead read = RedlockLockView.majority(
                List.of(node("me+mark", NOW + 500), node("me", NOW + 300), node("other", NOW + 900)), "me", NOW);

        assertThat(read.heldBy("me")).isTrue();
        assertThat(read.leaseEndMillis()).isEqualTo(NOW + 300);
    }

    @Test
    void anotherOwnersMajorityHoldsTheKeyWhenTheSectionHasNone() {
        HolderRead read = RedlockLockView.majority(
                List.of(node("me", NOW + 500), node("other", NOW + 300), node("other", NOW + 900)), "me", NOW);

        assertThat(read.holder()).isEqualTo("other");
    }

    @Test
    void aMajorityWhoseLeaseRanOutOnOneNodeEndsThere() {
        HolderRead read =
                RedlockLockView.majority(List.of(node("me", NOW + 1), node("me", NOW + 500), empty()), "me", NOW);

        assertThat(read.leaseEndMillis())
                .as("the witness finds a read with 1 ms left stale")
                .isEqualTo(NOW + 1);
    }

    @Test
    void aSilentNodeCountsForEveryOwner() {
        HolderRead read = RedlockLockView.majority(List.of(node("me", NOW + 500), silent(), empty()), "me", NOW);

        assertThat(read).isEqualTo(HolderRead.until("me", NOW + 500));
    }

    @Test
    void leasesThatRanOutHoldNothing() {
        HolderRead read =
                RedlockLockView.majority(List.of(node("other", NOW), node("other", NOW - 5), empty()), "me", NOW);

        assertThat(read).isEqualTo(HolderRead.none());
    }

    private static RedlockLockView.NodeRead node(String value, long leaseEnd) {
        return new RedlockLockView.NodeRead(value, leaseEnd, false);
    }

    private static RedlockLockView.NodeRead empty() {
        return new RedlockLockView.NodeRead(null, 0, false);
    }

    private static RedlockLockView.NodeRead silent() {
        return new RedlockLockView.NodeRead(null, 0, true);
    }
}
