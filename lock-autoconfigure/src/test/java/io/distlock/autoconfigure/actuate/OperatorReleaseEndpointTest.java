package io.distlock.autoconfigure.actuate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import io.distlock.Lease;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.autoconfigure.actuate.DistributedLockEndpoint.ReleaseDescriptor;
import io.distlock.memory.InMemoryLeaseStore;
import io.distlock.store.StoreLock;
import java.security.Principal;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.extension.ExtendWith;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

/**
 * {@code DELETE /actuator/distlock/{key}?fencingToken=N}: off by default, closed where nothing checks who calls,
 * releasing only the named hold, and logged with the caller's name.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
@ExtendWith(OutputCaptureExtension.class)
class OperatorReleaseEndpointTest {

    private static final SecurityContext ALICE = new SecurityContext() {
        @Override
        public Principal getPrincipal() {
            return () -> "alice";
        }

        @Override
        public boolean isUserInRole(String role) {
            return false;
        }
    };

    private final InMemoryLeaseStore store = new InMemoryLeaseStore();
    private final StoreLock holder =
            StoreLock.builder(store).shutdownGracePeriod(Duration.ZERO).build();
    private final StoreLock lock =
            StoreLock.builder(store).shutdownGracePeriod(Duration.ZERO).build();
    private final LockHandle stuck =
            holder.tryAcquire("jobs:report", Lease.renewed()).orElseThrow();

    @AfterEach
    void close() {
        // A handle left open is reported as dropped when it is collected, which can be during another test that
        // captures the output.
        try {
            stuck.close();
        } catch (LockLostException released) {
            // The tests that release it for an operator.
        }
        holder.close();
        lock.close();
    }

    @Test
    void releasingIsOffByDefault() {
        DistributedLockEndpoint endpoint = new DistributedLockEndpoint(lock, Show.ALWAYS, Set.of());

        assertThatThrownBy(() -> endpoint.release(ALICE, "jobs:report", stuck.fencingToken()))
                .isInstanceOf(InvalidEndpointRequestException.class)
                .hasMessageContaining("management.endpoint.distlock.release.enabled=true");
        assertThat(stuck.isHeld()).isTrue();
    }

    @Test
    void withoutSpringSecurityReleasingFailsClosedUnlessAPropertyOpensIt(CapturedOutput output) {
        DistributedLockEndpoint closed = endpoint(new OperatorReleasePolicy(true, false, false));
        assertThatThrownBy(() -> closed.release(SecurityContext.NONE, "jobs:report", stuck.fencingToken()))
                .isInstanceOf(InvalidEndpointRequestException.class)
                .hasMessageContaining("needs Spring Security")
                .hasMessageContaining("management.endpoint.distlock.release.without-security=true");
        assertThat(stuck.isHeld()).isTrue();

        DistributedLockEndpoint opened = endpoint(new OperatorReleasePolicy(true, false, true));
        ReleaseDescriptor released = opened.release(SecurityContext.NONE, "jobs:report", stuck.fencingToken());

        assertThat(released.released()).isTrue();
        assertThat(output).contains("WARN").contains("distlock: unauthenticated released lock 'jobs:report'");
    }

    @Test
    void withSpringSecurityAnAuthenticatedOperatorReleasesTheNamedHoldOnlyAndIsNamedInTheLog(CapturedOutput output) {
        DistributedLockEndpoint endpoint = endpoint(new OperatorReleasePolicy(true, true, false));
        assertThatThrownBy(() -> endpoint.release(SecurityContext.NONE, "jobs:report", stuck.fencingToken()))
                .isInstanceOf(InvalidEndpointRequestException.class)
                .hasMessageContaining("authenticated caller");

        ReleaseDescriptor stale = endpoint.release(ALICE, "jobs:report", stuck.fencingToken() + 1);
        assertThat(stale.released()).isFalse();
        assertThat(stuck.isHeld()).isTrue();
        ReleaseDescriptor released = endpoint.release(ALICE, "jobs:report", stuck.fencingToken());

        assertThat(released).isEqualTo(new ReleaseDescriptor("jobs:report", stuck.fencingToken(), true));
        assertThat(output)
                .contains("distlock: alice asked to release lock 'jobs:report' under fencing token "
                        + (stuck.fencingToken() + 1) + "; nothing was released")
                .contains("distlock: alice released lock 'jobs:report', held under fencing token "
                        + stuck.fencingToken());
        await().atMost(Duration.ofSeconds(10)).until(stuck::isLost);
        assertThatThrownBy(stuck::release)
                .isInstanceOfSatisfying(
                        LockLostException.class,
                        lost -> assertThat(lost.reason()).isEqualTo(LockLostException.Reason.RELEASED_BY_OPERATOR));
    }

    @Test
    void aCallerWhoMayNotSeeKeysReleasesNothing() {
        DistributedLockEndpoint endpoint =
                new DistributedLockEndpoint(lock, Show.NEVER, Set.of(), new OperatorReleasePolicy(true, true, false));

        assertThatThrownBy(() -> endpoint.release(ALICE, "jobs:report", stuck.fencingToken()))
                .isInstanceOf(InvalidEndpointRequestException.class)
                .hasMessageContaining("management.endpoint.distlock.show-values");
        assertThat(stuck.isHeld()).isTrue();
    }

    private DistributedLockEndpoint endpoint(OperatorReleasePolicy releases) {
        return new DistributedLockEndpoint(lock, Show.ALWAYS, Set.of(), releases);
    }
}
