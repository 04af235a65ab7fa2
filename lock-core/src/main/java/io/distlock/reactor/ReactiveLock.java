package io.distlock.reactor;

import io.distlock.Lease;
import io.distlock.Lock;
import io.distlock.LockHandle;
import io.distlock.LockLostException;
import io.distlock.LockNotAcquiredException;
import io.distlock.OnLockLost;
import io.distlock.internal.text.PrintableText;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Function;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * A {@link Lock} for Reactor code: acquisitions that block no thread, and work that holds the lock for the whole life
 * of a {@link Mono} or {@link Flux}.
 *
 * <p>Nothing happens until subscription; each subscription is its own acquisition. The lock is taken with {@link
 * Lock#tryAcquireAsync}, so while it waits no thread is blocked, and cancelling the subscription ends the wait. A lock
 * granted after the subscription was cancelled is released again.
 *
 * <p>{@link #withLock} and {@link #withLockMany} hold the lock until the work's publisher completes, fails or is
 * cancelled (also by a downstream {@code take(n)} or {@code timeout}), and release it then, before the completion
 * reaches downstream. The release blocks no thread either ({@link LockHandle#releaseAsync()}), since the work may end
 * on a thread of the Redis client, which a blocking release would stall until the command timeout. While held, the
 * handle is in the work's Reactor context (see {@link ReactiveLockContext}); inside a publisher that already holds the
 * key through the same lock, the work joins that hold instead of acquiring again.
 *
 * <p>Lost lease: an auto-renewed lease is renewed until the release. If the lock is lost while the work runs, the work
 * is cancelled and downstream receives {@link LockLostException}. If the loss is only found when releasing after the
 * work completed, downstream receives {@link LockLostException} instead of the completion. (With {@link
 * OnLockLost#LOG} both are logged instead, and the work runs to its end.) A grant that reaches this instance after its
 * own lease ran out never starts the work: downstream receives {@link LockLostException}, whatever {@code onLost} says.
 */
public final class ReactiveLock {

    private static final Logger log = LoggerFactory.getLogger(ReactiveLock.class);

    private final Lock lock;

    /**
     * Wraps a lock.
     *
     * @param lock the lock to take; its {@link Lock#fair()}, {@link Lock#reading()} or tree views work too
     * @throws IllegalArgumentException if {@code lock} is null
     */
    public ReactiveLock(Lock lock) {
        if (lock == null) {
            throw new IllegalArgumentException("lock must not be null");
        }
        this.lock = lock;
    }

    /**
     * The wrapped lock.
     *
     * @return the lock this adapter takes
     */
    public Lock lock() {
        return lock;
    }

    /**
     * Takes the lock when subscribed to, waiting up to {@code wait} without blocking a thread. The caller owns the
     * emitted handle and must release it; prefer {@link #withLock}, which does.
     *
     * <p>Timeout: the Mono fails with {@link LockNotAcquiredException} if the lock stayed held for the whole wait.
     * Cancel: cancelling the subscription ends the wait; a lock granted afterwards is released again, as is a handle
     * that was granted but not yet delivered. Invalid arguments, a closed lock and an unreachable store fail the Mono
     * as {@link Lock#tryAcquireAsync} fails its stage.
     *
     * @param key the lock's name
     * @param lease the lease of the new hold
     * @param wait how long to wait at most; {@link Duration#ZERO} tries once
     * @return a Mono of the handle
     */
    public Mono<LockHandle> acquire(String key, Lease lease, Duration wait) {
        return attempt(key, lease, wait)
                .flatMap(acquired ->
                        acquired.map(Mono::just).orElseGet(() -> Mono.error(new LockNotAcquiredException(key, wait))));
    }

    /**
     * Runs {@code work} under the lock, like {@link #withLockMany}, for work that gives at most one value.
     *
     * @param key the lock's name
     * @param lease the lease of the hold
     * @param wait how long to wait for the lock at most
     * @param work gives the publisher to run under the lock; called on subscription, once the lock is held
     * @param <T> the result type
     * @return a Mono of the work's result; fails with {@link LockNotAcquiredException} on timeout, without calling the
     *     work, or with {@link LockLostException} if the lock is lost before the work ended
     */
    public <T> Mono<T> withLock(String key, Lease lease, Duration wait, Function<LockHandle, ? extends Mono<T>> work) {
        return withLockMany(key, lease, wait, work).singleOrEmpty();
    }

    /**
     * Runs {@code work} under the lock: takes it on subscription, subscribes to the work's publisher once it is held,
     * and releases it when that publisher completes, fails or is cancelled.
     *
     * <p>Timeout: fails with {@link LockNotAcquiredException} without calling the work. Cancel: while waiting, ends
     * the wait; while the work runs, cancels it and releases the lock. Lost lease: the work is cancelled and the Flux
     * fails with {@link LockLostException}; a loss found at release fails the Flux instead of completing it.
     *
     * @param key the lock's name
     * @param lease the lease of the hold
     * @param wait how long to wait for the lock at most
     * @param work gives the publisher to run under the lock; called on subscription, once the lock is held
     * @param <T> the element type
     * @return a Flux of the work's elements
     */
    public <T> Flux<T> withLockMany(
            String key, Lease lease, Duration wait, Function<LockHandle, ? extends Publisher<T>> work) {
        return withLockMany(key, lease, wait, OnLockLost.THROW, work, Flux::error);
    }

    /**
     * Runs {@code work} under the lock like {@link #withLockMany(String, Lease, Duration, Function)}, with a choice of
     * what a lost lock and a busy lock do.
     *
     * @param key the lock's name
     * @param lease the lease of the hold
     * @param wait how long to wait for the lock at most
     * @param onLost {@link OnLockLost#THROW}: a loss while the work runs cancels it and fails the Flux, a loss found at
     *     release fails it; {@link OnLockLost#LOG}: both are logged, and the work runs to its end
     * @param work gives the publisher to run under the lock; called on subscription, once the lock is held
     * @param whenNotAcquired gives the publisher to run instead when the lock stayed held for the whole wait
     * @param <T> the element type
     * @return a Flux of the work's elements, or of the elements of {@code whenNotAcquired}
     * @throws IllegalArgumentException if {@code onLost} is {@link OnLockLost#DEFAULT}, or a function is null
     */
    public <T> Flux<T> withLockMany(
            String key,
            Lease lease,
            Duration wait,
            OnLockLost onLost,
            Function<LockHandle, ? extends Publisher<T>> work,
            Function<? super LockNotAcquiredException, ? extends Publisher<T>> whenNotAcquired) {
        if (onLost == null || onLost == OnLockLost.DEFAULT) {
            throw new IllegalArgumentException("onLost must be THROW or LOG, but was " + onLost);
        }
        if (work == null || whenNotAcquired == null) {
            throw new IllegalArgumentException("work and whenNotAcquired must not be null");
        }
        return Flux.deferContextual(context -> {
            Optional<LockHandle> outer = ReactiveLockContext.find(context, lock, key);
            if (outer.isPresent() && !outer.get().isLost()) {
                // The outer hold is released only after this publisher ends, and watches for loss itself.
                return work.apply(outer.get());
            }
            return attempt(key, lease, wait)
                    .flatMapMany(acquired -> acquired.isPresent()
                            ? hold(acquired.get(), onLost, work)
                            : Flux.from(whenNotAcquired.apply(new LockNotAcquiredException(key, wait))));
        });
    }

    private <T> Flux<T> hold(LockHandle handle, OnLockLost onLost, Function<LockHandle, ? extends Publisher<T>> work) {
        return Flux.usingWhen(
                Mono.just(handle),
                held -> {
                    Flux<T> running = Flux.defer(() -> held.isLost()
                            // A grant that came after its own lease ran out: the work must not start without its lock.
                            ? Flux.error(new LockLostException(
                                    held.key(), LockLostException.Reason.GRANTED_TOO_LATE, Duration.ZERO))
                            : work.apply(held));
                    if (onLost == OnLockLost.THROW) {
                        running = endOnLoss(running, held);
                    }
                    // Released here rather than by usingWhen's completion hook, which would wrap a LockLostException.
                    return running.contextWrite(context -> ReactiveLockContext.with(context, lock, held))
                            .concatWith(releaseAfterCompletion(held, onLost).then(Mono.empty()));
                },
                held -> Mono.empty(),
                (held, failure) -> releaseAfterFailure(held, failure),
                held -> releaseAfterFailure(held, null));
    }

    /**
     * Cancels the work and fails with the loss when the lock is lost. The loss is a value for {@code takeUntilOther},
     * since an error of that other publisher would reach downstream without cancelling the work.
     */
    private static <T> Flux<T> endOnLoss(Flux<T> running, LockHandle held) {
        AtomicReference<@Nullable LockLostException> lost = new AtomicReference<>();
        // Signalled off the lock's internal thread, which must return quickly: downstream runs on the signalling one.
        Mono<LockLostException> loss = Mono.<LockLostException>create(sink -> held.onLost(exception -> {
                    lost.set(exception);
                    sink.success(exception);
                }))
                .publishOn(Schedulers.boundedElastic());
        return running.takeUntilOther(loss).concatWith(Mono.defer(() -> {
            LockLostException exception = lost.get();
            return exception == null ? Mono.empty() : Mono.error(exception);
        }));
    }

    /**
     * One acquisition attempt per subscription: empty if the wait ran out, cancelled with the subscription. Not {@code
     * Mono.fromCompletionStage}: in Reactor 3.8 it does cancel the future, but a handle that completes it as the
     * subscription is cancelled would be dropped unreleased; here exactly one side, delivery or cancel, wins.
     */
    private Mono<Optional<LockHandle>> attempt(String key, Lease lease, Duration wait) {
        return Mono.<Optional<LockHandle>>create(sink -> {
                    CompletableFuture<Optional<LockHandle>> acquisition =
                            lock.tryAcquireAsync(key, lease, wait).toCompletableFuture();
                    AtomicReference<@Nullable Boolean> delivered = new AtomicReference<>();
                    sink.onCancel(() -> {
                        if (delivered.compareAndSet(null, false)) {
                            // The acquisition releases a grant that arrives after this cancel.
                            acquisition.cancel(false);
                        }
                    });
                    acquisition.whenComplete((acquired, failure) -> {
                        if (failure != null) {
                            if (delivered.get() == null) {
                                sink.error(unwrap(failure));
                            }
                        } else if (delivered.compareAndSet(null, true)) {
                            sink.success(acquired);
                        } else {
                            acquired.ifPresent(ReactiveLock::giveBack);
                        }
                    });
                })
                // A handle granted but not yet taken downstream when the subscription is cancelled.
                .doOnDiscard(Optional.class, acquired -> {
                    if (acquired.isPresent() && acquired.get() instanceof LockHandle held) {
                        giveBack(held);
                    }
                });
    }

    /** The release, waiting for the store on no thread; an already released handle counts as released. */
    private static Mono<Void> released(LockHandle held) {
        return Mono.defer(() -> Mono.fromCompletionStage(held.releaseAsync()))
                .onErrorMap(CompletionException.class, e -> e.getCause() == null ? e : e.getCause())
                .onErrorResume(IllegalStateException.class, alreadyReleased -> Mono.empty());
    }

    private static Mono<Void> releaseAfterCompletion(LockHandle held, OnLockLost onLost) {
        return released(held).onErrorResume(notReleased -> {
            if (notReleased instanceof LockLostException lost) {
                if (onLost == OnLockLost.THROW) {
                    return Mono.error(lost);
                }
                log.warn(
                        "Work under lock '{}' finished after the lock was lost: {}",
                        PrintableText.of(held.key()),
                        lost.getMessage());
            } else {
                log.warn(
                        "Lock '{}' could not be released after its work finished; it expires with its lease: {}",
                        held.key(),
                        notReleased.getMessage());
            }
            return Mono.empty();
        });
    }

    /** After a failure or a cancel, which stays what downstream sees; a release failure is attached or logged. */
    private static Mono<Void> releaseAfterFailure(LockHandle held, @Nullable Throwable failure) {
        return released(held).onErrorResume(releaseFailure -> {
            if (failure instanceof LockLostException && releaseFailure instanceof LockLostException) {
                // The loss that ended the work, found again.
                return Mono.empty();
            }
            if (failure != null) {
                failure.addSuppressed(releaseFailure);
            } else {
                log.warn(
                        "Lock '{}' could not be released cleanly after its work was cancelled: {}",
                        held.key(),
                        releaseFailure.getMessage());
            }
            return Mono.empty();
        });
    }

    private static void giveBack(LockHandle handle) {
        handle.releaseAsync().whenComplete((released, failure) -> {
            if (failure != null) {
                log.warn(
                        "Lock '{}' was granted after its subscription was cancelled and could not be released; it "
                                + "expires with its lease: {}",
                        handle.key(),
                        unwrap(failure).getMessage());
            }
        });
    }

    private static Throwable unwrap(Throwable failure) {
        return failure instanceof CompletionException && failure.getCause() != null ? failure.getCause() : failure;
    }
}
