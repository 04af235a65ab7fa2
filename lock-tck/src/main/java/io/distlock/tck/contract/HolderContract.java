package io.distlock.tck.contract;

import static io.distlock.tck.contract.ContractTimes.LONG_LEASE;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.abort;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.monitor.InspectableLock;
import io.distlock.monitor.KeyState;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What a lock tells the people who run it about a key's holder: another client that inspects a held key hears the
 * holder's instance name and when it took the key, and never its owner token; a free key names nobody. {@link
 * LockContract} runs it for each implementation whose clients are {@link InspectableLock}s that can tell one key's
 * state; a subject whose store keeps no names overrides {@link #namesHolders()}.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public interface HolderContract extends ContractSubject {

    /**
     * Whether the store keeps the holder's name with each hold.
     *
     * @return true unless the subject says its store keeps none
     */
    default boolean namesHolders() {
        return true;
    }

    @Test
    default void anotherClientHearsWhoHoldsAKeyAndSinceWhenButNotItsToken() {
        assumeTrue(namesHolders(), "this store keeps no holder's name");
        Lock holder = connectedClient();
        Lock other = connectedClient();
        String key = key("held");

        try (LockHandle held = holder.tryAcquire(key, LONG_LEASE).orElseThrow()) {
            KeyState state = keyState(other, key);

            assertThat(state.held()).isTrue();
            assertThat(state.holder()).isNotBlank();
            assertThat(state.heldSince()).isNotNull();
            assertThat(state.toString()).doesNotContain(held.ownerToken());
        }

        KeyState free = keyState(other, key);
        assertThat(free.held()).isFalse();
        assertThat(free.holder()).isNull();
        assertThat(free.heldSince()).isNull();
    }

    private static KeyState keyState(Lock client, String key) {
        if (!(client instanceof InspectableLock inspectable)) {
            return abort("the client cannot be inspected");
        }
        try {
            return inspectable.keyState(key);
        } catch (UnsupportedOperationException e) {
            return abort("the client cannot tell one key's state: " + e.getMessage());
        }
    }
}
