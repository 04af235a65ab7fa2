package io.distlock.tck.contract;

import static io.distlock.tck.contract.ContractTimes.LONG_LEASE;
import static io.distlock.tck.contract.ContractTimes.SHORT_WAIT;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.monitor.HeldLock;
import io.distlock.monitor.InspectableLock;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What every {@link Lock} promises about its {@link Lock#asJavaLock JDK lock view}: it is owned by the thread that
 * locked it, and while that thread holds the key through a view, its other acquisitions of the key through the same
 * lock (through any view, or plain) re-enter that hold; inspection names the thread. {@link LockContract} runs it for
 * each implementation.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
public interface JavaLockViewContract extends ContractSubject {

    /** The view is owned by the locking thread, re-entrant, and unlocked as many times as it was locked. */
    @Test
    default void javaLockViewIsThreadOwnedAndReentrant() throws Exception {
        Lock lock = connectedClient();
        Lock other = connectedClient();
        String key = key("k");
        java.util.concurrent.locks.Lock view = lock.asJavaLock(key, LONG_LEASE);

        view.lock();
        assertThat(view.tryLock()).isTrue();
        boolean lockedElsewhere = onOtherThread(view::tryLock);
        assertThat(lockedElsewhere).isFalse();
        assertThatThrownBy(() -> onOtherThread(() -> {
                    view.unlock();
                    return null;
                }))
                .hasRootCauseInstanceOf(IllegalMonitorStateException.class);
        view.unlock();
        assertThat(other.tryAcquire(key, LONG_LEASE)).isEmpty();
        view.unlock();
        assertThat(view.tryLock(1, TimeUnit.SECONDS)).isTrue();
        view.unlock();
        assertThatThrownBy(view::unlock).isInstanceOf(IllegalMonitorStateException.class);
        assertThatThrownBy(view::newCondition).isInstanceOf(UnsupportedOperationException.class);
    }

    /**
     * A thread that holds the key through one view re-enters that hold through a second view of the same lock and
     * through plain acquisitions, with and without a wait, as {@link Lock#asJavaLock}'s javadoc says; the key is free
     * only once every one of them was given back.
     */
    @Test
    default void aViewHoldIsReenteredThroughASecondViewAndPlainAcquisitions() throws Exception {
        Lock lock = connectedClient();
        Lock other = connectedClient();
        String key = key("k");
        java.util.concurrent.locks.Lock first = lock.asJavaLock(key, LONG_LEASE);
        java.util.concurrent.locks.Lock second = lock.asJavaLock(key, LONG_LEASE);

        first.lock();
        assertThat(second.tryLock())
                .as("a second view, locked by the same thread")
                .isTrue();
        LockHandle plain = lock.tryAcquire(key, LONG_LEASE)
                .orElseThrow(() -> new AssertionError("a plain try of the view's thread was refused as another owner"));
        LockHandle waited = lock.tryAcquire(key, LONG_LEASE, SHORT_WAIT)
                .orElseThrow(() -> new AssertionError("a waiting try of the view's thread was refused"));

        assertThat(waited.fencingToken()).as("one hold").isEqualTo(plain.fencingToken());
        assertThat(other.tryAcquire(key, LONG_LEASE)).isEmpty();
        plain.release();
        second.unlock();
        waited.release();
        assertThat(other.tryAcquire(key, LONG_LEASE))
                .as("still held through the first view")
                .isEmpty();
        first.unlock();
        LockHandle next = other.tryAcquire(key, LONG_LEASE)
                .orElseThrow(() -> new AssertionError("the key stayed held after every re-entry was given back"));
        assertThat(next.fencingToken()).isGreaterThan(plain.fencingToken());
        next.release();
    }

    /**
     * Inspection names the thread that a hold through the view is bound to, which alone may unlock it, and no thread for
     * a plain hold, which any thread may release. Only for locks that are {@link InspectableLock}s.
     */
    @Test
    default void inspectionNamesTheThreadThatAViewHoldIsBoundTo() throws Exception {
        Lock lock = connectedClient();
        assumeTrue(lock instanceof InspectableLock, lock.getClass().getSimpleName() + " cannot be inspected");
        InspectableLock inspected = (InspectableLock) lock;
        String viewKey = key("view");
        String plainKey = key("plain");
        java.util.concurrent.locks.Lock view = lock.asJavaLock(viewKey, LONG_LEASE);
        LockHandle plain = lock.tryAcquire(plainKey, LONG_LEASE).orElseThrow();
        CountDownLatch locked = new CountDownLatch(1);
        CountDownLatch unlock = new CountDownLatch(1);
        CompletableFuture<Void> owner = new CompletableFuture<>();
        Thread viewOwner = new Thread(
                () -> {
                    try {
                        view.lock();
                        try {
                            locked.countDown();
                            unlock.await(30, TimeUnit.SECONDS);
                        } finally {
                            view.unlock();
                        }
                        owner.complete(null);
                    } catch (Throwable e) {
                        owner.completeExceptionally(e);
                    }
                },
                "contract-view-owner");
        viewOwner.start();
        try {
            assertThat(locked.await(10, TimeUnit.SECONDS)).isTrue();

            List<HeldLock> held = inspected.heldLocks();

            assertThat(held)
                    .filteredOn(hold -> hold.key().equals(viewKey))
                    .singleElement()
                    .satisfies(hold -> assertThat(hold.boundThread()).isEqualTo("contract-view-owner"));
            assertThat(held)
                    .filteredOn(hold -> hold.key().equals(plainKey))
                    .singleElement()
                    .satisfies(hold -> assertThat(hold.boundThread()).isNull());
        } finally {
            unlock.countDown();
            owner.get(10, TimeUnit.SECONDS);
            plain.release();
        }
    }
}
