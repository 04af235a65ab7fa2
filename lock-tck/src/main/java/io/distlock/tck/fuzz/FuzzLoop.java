package io.distlock.tck.fuzz;

import io.distlock.Lock;
import io.distlock.LockContext;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.LockNotAcquiredException;
import io.distlock.MultiLockHandle;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import org.jspecify.annotations.Nullable;

/**
 * One fuzz worker thread, or with asynchronous holders one chain of acquisitions in flight ({@link #runAsync}): until
 * the run ends, draws an operation, a lease, a key and, with a read-write lock, whether to read or write, runs one
 * critical section under the lock with the checker watching, gives the lock back ({@link Releases}) and judges what
 * the holder learned about a lost lock ({@link SectionVerdict}).
 */
final class FuzzLoop implements Runnable {

    /** Auto-renewed held sections refresh their claim this often, well within the renewal interval. */
    private static final long REFRESH_MILLIS = 40;

    private final LockUnderTest target;
    private final Checker checker;
    private final Workload workload;
    private final Tally tally;
    private final Releases releases;
    private final SplittableRandom random;
    private final String name;
    private final long endNanos;
    private boolean opensWithRenewedHold;
    private long sections;
    /** Whether the current section reads, which only a read-write lock's sections ever do. */
    private boolean reading;
    /** The current section's lock: the reader's if {@link #reading}, the writer's (or the only one) otherwise. */
    private Lock lock;

    FuzzLoop(
            LockUnderTest target,
            Checker checker,
            Workload workload,
            Tally tally,
            ExecutorService releaser,
            SplittableRandom random,
            String name,
            long endNanos) {
        this.target = target;
        this.checker = checker;
        this.workload = workload;
        this.tally = tally;
        this.releases = new Releases(releaser);
        this.random = random;
        this.name = name;
        this.endNanos = endNanos;
    }

    /** Makes the first section a renewed lease held across renewals, so every run has some however slow it is. */
    FuzzLoop openingWithRenewedHold() {
        opensWithRenewedHold = true;
        return this;
    }

    @Override
    public void run() {
        while (System.nanoTime() - endNanos < 0 && !Thread.currentThread().isInterrupted()) {
            boolean renewedHold = opensWithRenewedHold && sections == 0;
            Operation operation = renewedHold ? Operation.ACQUIRE : workload.operation(random);
            LeaseProfile.Plan plan =
                    (renewedHold ? LeaseProfile.RENEWED_HELD : workload.profile(operation, random)).plan(random);
            String key = workload.key(operation, random);
            reading = workload.reads(random);
            lock = target.lock(reading);
            boolean goOn = tally.counted(name, () -> {
                if (operation == Operation.CALL || operation == Operation.RUN) {
                    withCallback(operation, plan, key);
                } else if (operation == Operation.SEVERAL_KEYS) {
                    withSeveralKeys(plan, key);
                } else {
                    withHandle(operation, plan, key);
                }
            });
            if (!goOn) {
                return;
            }
        }
    }

    /**
     * Runs this loop as a chain of asynchronous holders instead of a thread: each acquisition goes through {@code
     * tryAcquireAsync} or {@code acquireAsync} with no thread waiting for it, and the next one starts when the section
     * of the last one ended. The section and its release run when the acquisition completes, on one of {@code holders}'
     * threads, a third of the releases on yet another thread and a third through {@code releaseAsync}: the checker's
     * section blocks (it reads the lock's store, calls the witness and sleeps to outlive short leases), which must not
     * hold up the thread the lock completes its stages on.
     *
     * <p>The steps of a chain run one after another, each started by the completion of the one before, so the loop's
     * state and random draws stay confined to one step at a time, as in a thread.
     *
     * @param holders where sections run
     * @return a stage that completes once the run's time is over and the chain's last section ended
     */
    CompletableFuture<Void> runAsync(Executor holders) {
        CompletableFuture<Void> ended = new CompletableFuture<>();
        nextAsync(holders, ended);
        return ended;
    }

    private void nextAsync(Executor holders, CompletableFuture<Void> ended) {
        if (System.nanoTime() - endNanos >= 0) {
            ended.complete(null);
            return;
        }
        boolean renewedHold = opensWithRenewedHold && sections == 0;
        Operation operation = renewedHold ? Operation.ASYNC_ACQUIRE : workload.asyncOperation(random);
        LeaseProfile.Plan plan =
                (renewedHold ? LeaseProfile.RENEWED_HELD : workload.profile(operation, random)).plan(random);
        String key = workload.key(operation, random);
        reading = workload.reads(random);
        lock = target.lock(reading);
        Duration wait = workload.wait(random);
        long calledNanos = System.nanoTime();
        CompletionStage<Optional<LockHandle>> acquiring;
        try {
            acquiring = operation == Operation.ASYNC_TRY
                    ? lock.tryAcquireAsync(key, plan.lease(), wait)
                    : lock.acquireAsync(key, plan.lease(), wait).thenApply(Optional::of);
        } catch (RuntimeException e) {
            acquiring = CompletableFuture.failedFuture(e);
        }
        acquiring.whenCompleteAsync(
                (acquired, failure) -> {
                    if (tally.counted(
                            name, () -> withAsyncHandle(operation, plan, key, calledNanos, acquired, failure))) {
                        nextAsync(holders, ended);
                    } else {
                        ended.complete(null);
                    }
                },
                holders);
    }

    /** The section of an asynchronous acquisition, once it completed with {@code acquired} or {@code failure}. */
    private void withAsyncHandle(
            Operation operation,
            LeaseProfile.Plan plan,
            String key,
            long calledNanos,
            @Nullable Optional<LockHandle> acquired,
            @Nullable Throwable failure)
            throws InterruptedException, ExecutionException, TimeoutException {
        Throwable cause =
                failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
        if (cause instanceof LockNotAcquiredException || (cause == null && acquired.isEmpty())) {
            tally.add(Count.NOT_ACQUIRED);
            checker.refused(key);
            return;
        }
        if (cause instanceof RuntimeException runtime) {
            throw runtime;
        }
        if (cause != null) {
            throw new IllegalStateException("the acquisition failed", cause);
        }
        tally.acquired(operation, plan.profile(), reading);
        Section section = newSection(key, acquired.get(), calledNanos);
        boolean exited = false;
        try {
            checker.enter(section);
            work(plan, section);
            exit(section);
            exited = true;
        } finally {
            if (!exited) {
                abandon(section);
            }
        }
        int releasing = random.nextInt(3);
        section.lossReported(
                releasing == 0
                        ? releases.releaseElsewhere(section.handle())
                        : releasing == 1
                                ? Releases.release(section.handle())
                                : Releases.releaseAsync(section.handle()));
        SectionVerdict.judge(tally, section, plan);
    }

    /** The forms that hand out a handle: the worker releases it, or has another thread release it. */
    private void withHandle(Operation operation, LeaseProfile.Plan plan, String key)
            throws InterruptedException, ExecutionException, TimeoutException {
        long calledNanos = System.nanoTime();
        Optional<LockHandle> acquired = switch (operation) {
            case TRY_NOW -> lock.tryAcquire(key, plan.lease());
            case ACQUIRE -> Optional.of(lock.acquire(key, plan.lease()));
            default -> lock.tryAcquire(key, plan.lease(), workload.wait(random));
        };
        if (acquired.isEmpty()) {
            tally.add(Count.NOT_ACQUIRED);
            checker.refused(key);
            return;
        }
        tally.acquired(operation, plan.profile(), reading);
        Section section = newSection(key, acquired.get(), calledNanos);
        LockHandle last = section.handle();
        boolean exited = false;
        try {
            checker.enter(section);
            if (operation == Operation.NESTED) {
                last = Reentry.nest(section, lock, random, tally, checker);
            }
            work(plan, section);
            exit(section);
            exited = true;
        } finally {
            if (!exited) {
                abandon(section);
            }
        }
        section.lossReported(operation == Operation.HANDOFF ? releases.releaseElsewhere(last) : Releases.release(last));
        SectionVerdict.judge(tally, section, plan);
    }

    /** Two keys taken all or none, each key its own section for the checker. */
    private void withSeveralKeys(LeaseProfile.Plan plan, String key) throws InterruptedException {
        List<String> keys = List.of(key, workload.otherKey(key, random));
        long calledNanos = System.nanoTime();
        Optional<MultiLockHandle> acquired = random.nextBoolean()
                ? lock.tryAcquireAll(keys, plan.lease(), workload.wait(random))
                : Optional.of(lock.acquireAll(keys, plan.lease()));
        if (acquired.isEmpty()) {
            tally.add(Count.NOT_ACQUIRED);
            return;
        }
        MultiLockHandle held = acquired.get();
        List<Section> sections = new ArrayList<>();
        for (LockHandle handle : held.handles()) {
            tally.acquired(Operation.SEVERAL_KEYS, plan.profile(), reading);
            sections.add(newSection(handle.key(), handle, calledNanos));
        }
        boolean exited = false;
        try {
            for (Section section : sections) {
                checker.enter(section);
            }
            work(plan, sections.get(0));
            sections.forEach(this::exit);
            exited = true;
        } finally {
            if (!exited) {
                sections.forEach(this::abandon);
            }
        }
        Set<String> reportedLost = Releases.release(held);
        for (Section section : sections) {
            section.lossReported(reportedLost.contains(section.key()));
            SectionVerdict.judge(tally, section, plan);
        }
    }

    /** The forms that run work under the lock; the work finds its handle through {@link LockContext}. */
    private void withCallback(Operation operation, LeaseProfile.Plan plan, String key) throws InterruptedException {
        AtomicReference<Section> inside = new AtomicReference<>();
        long calledNanos = System.nanoTime();
        try {
            if (operation == Operation.CALL) {
                lock.callWithLock(
                        key,
                        plan.lease(),
                        workload.wait(random),
                        () -> section(operation, plan, key, calledNanos, inside));
            } else {
                lock.runWithLock(
                        key,
                        plan.lease(),
                        workload.wait(random),
                        () -> section(operation, plan, key, calledNanos, inside));
            }
        } catch (LockNotAcquiredException e) {
            tally.add(Count.NOT_ACQUIRED);
            checker.refused(key);
            return;
        } catch (LockLostException e) {
            if (inside.get() == null) {
                if (e.reason() != LockLostException.Reason.GRANTED_TOO_LATE) {
                    throw e;
                }
                // The work never started: the grant came after its lease, which the lock must refuse to run under.
                tally.add(Count.LOST_AT_GRANT);
                return;
            }
            inside.get().lossReported(true);
        }
        SectionVerdict.judge(tally, inside.get(), plan);
    }

    private Section section(
            Operation operation, LeaseProfile.Plan plan, String key, long calledNanos, AtomicReference<Section> inside)
            throws InterruptedException {
        LockHandle handle = LockContext.current(workload.handleKey(key))
                .orElseThrow(() -> new IllegalStateException("no handle in LockContext inside " + operation.label()));
        tally.acquired(operation, plan.profile(), reading);
        Section section = newSection(key, handle, calledNanos);
        inside.set(section);
        checker.enter(section);
        try {
            work(plan, section);
        } finally {
            exit(section);
        }
        return section;
    }

    private void work(LeaseProfile.Plan plan, Section section) throws InterruptedException {
        if (plan.profile() == LeaseProfile.RENEWED_HELD) {
            long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(plan.workMillis());
            while (section.state() == Checker.State.HELD && System.nanoTime() - end < 0) {
                Thread.sleep(REFRESH_MILLIS);
                checker.refresh(section);
            }
        } else if (plan.workMillis() > 0) {
            Thread.sleep(plan.workMillis());
        }
    }

    private void exit(Section section) {
        checker.exit(section);
        section.seenLost(section.handle().isLost());
    }

    /** After a failure inside the section: leave and release as far as possible; the failure is what gets reported. */
    private void abandon(Section section) {
        try {
            checker.exit(section);
        } catch (RuntimeException alsoFailed) {
            // The section's claim then expires with its lease.
        }
        try {
            section.handle().close();
        } catch (RuntimeException alsoFailed) {
            // The lock then expires with its lease.
        }
    }

    private Section newSection(String key, LockHandle handle, long calledNanos) {
        sections++;
        return new Section(key, target.lockKey(handle.key(), reading), handle, name, sections, calledNanos, reading);
    }
}
