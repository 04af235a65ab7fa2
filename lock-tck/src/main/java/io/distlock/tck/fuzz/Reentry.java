package io.distlock.tck.fuzz;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import java.util.Optional;
import java.util.SplittableRandom;

/**
 * The nested sections of a fuzz run: the holder takes its lock again inside a scope that holds it, which must hand it
 * the same hold (the same fencing token), and releases the inner and the outer handle in either order.
 */
final class Reentry {

    private Reentry() {}

    /**
     * Re-enters the held lock inside a scope that holds it, and releases one of the two handles, inner or outer first;
     * the hold must survive that.
     *
     * @param section the section, inside which {@code lock} holds its key
     * @return the handle to release after the section
     */
    // try: the scope only marks this thread as the holder while it re-enters; its variable is never read.
    @SuppressWarnings("try")
    static LockHandle nest(Section section, Lock lock, SplittableRandom random, Tally tally, Checker checker) {
        LockHandle outer = section.handle();
        Lease innerLease =
                random.nextBoolean() ? LeaseProfile.FIXED_LONG.plan(random).lease() : Lease.renewed();
        Optional<LockHandle> inner;
        try (LockContext.Scope scope = LockContext.enter(outer)) {
            inner = lock.tryAcquire(section.key(), innerLease);
        } catch (LockLostException e) {
            section.lossReported(true);
            return outer;
        }
        if (inner.isEmpty()) {
            tally.violation(Count.REENTRY_FAILED, section.id() + " could not re-enter its own lock " + section.key());
            return outer;
        }
        if (inner.get().fencingToken() != outer.fencingToken()) {
            tally.violation(
                    Count.REENTRY_FAILED,
                    section.id() + " re-entered " + section.key() + " with fencing token "
                            + inner.get().fencingToken());
            section.lossReported(Releases.release(inner.get()));
            return outer;
        }
        boolean innerFirst = random.nextBoolean();
        try {
            section.lossReported(Releases.release(innerFirst ? inner.get() : outer));
            checker.check(section);
        } catch (RuntimeException e) {
            // The caller abandons the outer handle only; without this the inner one would keep the hold alive.
            inner.get().close();
            throw e;
        }
        return innerFirst ? outer : inner.get();
    }
}
