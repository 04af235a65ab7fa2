package io.distlock;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a Spring bean's method only while holding the distributed lock named by {@link #key()}, all the locks named
 * by {@link #keys()}, or the path {@link #path()} in the tree {@link #tree()}. Set exactly one of {@code key}, {@code
 * keys}, or {@code tree} with {@code path}.
 *
 * <pre>{@code
 * @DistributedLock(key = "'stock:' + #sku", leaseSeconds = 10, waitSeconds = 3)
 * public int deduct(String sku, int quantity) { ... }
 *
 * @DistributedLock(tree = "'project:' + #projectId", path = "#folder", leaseSeconds = 30)
 * public void reorganize(long projectId, String folder) { ... }
 * }</pre>
 *
 * <p>The lock is taken before the method runs and released after it returns or throws. If it cannot be taken within
 * the wait, the method does not run: a {@link LockNotAcquiredException} is thrown, or the {@link #fallback()} method
 * is called instead. There is no way to run the method without its lock.
 *
 * <p>A method returning a {@code CompletionStage} or {@code CompletableFuture}, or a Reactor {@code Mono} or {@code
 * Flux}, holds its lock until what it returned ends: the stage completes, or the publisher completes, fails or is
 * cancelled. The lock is then taken without blocking the caller and the method called once it is held (for a {@code
 * Mono} or {@code Flux}, on subscription); when it is not acquired, the fallback's stage or publisher is used, or the
 * stage or publisher fails with {@link LockNotAcquiredException}. Cancelling the returned future, or timing it out,
 * cancels the method's future and releases the lock. With {@link OnLockLost#THROW}, a loss while the work runs ends it
 * with {@link LockLostException}. The handle is visible through {@link LockContext} only during the method's
 * synchronous part; in a {@code Mono} or {@code Flux} it is in the Reactor context ({@code
 * io.distlock.reactor.ReactiveLockContext}).
 *
 * <p>A Kotlin {@code suspend} function holds its lock until its coroutine ends: it returns, throws, or is cancelled.
 * The lock is taken when the function is called, without blocking the caller's thread, and its body runs once it is
 * held; when it is not acquired, the call throws {@link LockNotAcquiredException} and the body does not run.
 * Cancelling the calling coroutine cancels the body and releases the lock. With {@link OnLockLost#THROW}, a loss while
 * the body runs cancels it and the call throws {@link LockLostException}, as does a loss found at release. A suspend
 * function returning a {@code Flow} takes the lock when the {@code Flow} is collected and holds it until the {@code
 * Flow} completes, fails or its collection is cancelled. The handle is in the coroutine's Reactor context, not in
 * {@link LockContext}: {@code ReactiveLockContext.current(key).awaitSingle()}; a nested locked suspend call on the same
 * key joins the hold. Spring calls a suspend function this way only with {@code
 * org.jetbrains.kotlinx:kotlinx-coroutines-reactor} on the class path, so without it start-up fails; {@link
 * #fallback()} and {@link #skipWhenBusy()} are not supported on suspend functions, and a function that is not {@code
 * suspend} but returns a {@code Flow} is refused, since the {@code Flow} would run after the release.
 *
 * <p>Everything about the annotation is checked when the bean is created, so a mistake fails application start-up
 * rather than the first call: which attributes are set together, the expressions' syntax and the parameter names and
 * beans they use, the lease and wait values, the fallback method, and the return type (a plain {@code Future}, a
 * {@code Flow.Publisher}, a Reactive Streams {@code Publisher} other than {@code Mono} and {@code Flux}, or a Kotlin
 * {@code Flow} from a function that is not {@code suspend} is refused, since the lock could not follow its work, as is
 * {@link #keys()} on an asynchronous method). What only a call can tell, a key, tree or path that evaluates to
 * something invalid, is an {@link IllegalArgumentException} naming the method, the expression and the arguments, and
 * the method does not run.
 *
 * <p>Like {@code @Transactional}, the annotation works through a Spring proxy: calls from inside the same bean
 * ({@code this.deduct(...)}) are not locked. The lock is ordered outside the transaction, so with {@code
 * @Transactional} on the same method the transaction commits or rolls back before the lock is released.
 *
 * <p>Nested annotated calls on the same thread with the same key re-enter the held lock; with different keys they
 * take both locks, outer first. A nested call on the same path of the same tree, or on a path below it, re-enters the
 * held path; one on an ancestor waits for it like any other caller, so take the ancestor in the outer call. The held
 * lock is available to the method and whatever it calls on the same thread through {@link LockContext#current()}, for
 * example to pass its fencing token to a store.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface DistributedLock {

    /** The value of {@link #leaseSeconds()} and {@link #waitSeconds()} that means "use the configured default". */
    long DEFAULT = -1;

    /**
     * The lock's name: a SpEL expression over the method's parameters by name ({@code #sku}, {@code #order.id}) or by
     * position ({@code #p0}, {@code #a0}), the root object ({@code #root.method}, {@code #root.target}, {@code
     * #root.args}, {@code #root.targetClass}) and beans ({@code @beanName}); text in single quotes. The result must
     * not be null or blank, nor an array or collection: use {@link #keys()} to take several keys. Set either this,
     * {@link #keys()}, or {@link #tree()} with {@link #path()}.
     *
     * <p>Write the expression in code: values that reach it as arguments are only values, never evaluated, but an
     * expression taken from a request would be.
     *
     * @return the key expression, or empty when {@link #keys()} or {@link #tree()} is set
     */
    String key() default "";

    /**
     * Several locks' names, taken all or none before the method runs, as {@link Lock#tryAcquireAll} takes them: in one
     * global order, so that methods with overlapping keys never deadlock. Each element is an expression like {@link
     * #key()} whose result is one key, or an array or collection of keys (an empty one adds none); duplicates are
     * taken once. Each key's handle is available through {@link LockContext#current(String)}, and the {@link
     * #waitSeconds() wait} is for all the keys together. Set either this, {@link #key()}, or {@link #tree()} with
     * {@link #path()}.
     *
     * <pre>{@code
     * @DistributedLock(keys = {"'stock:' + #from", "'stock:' + #to"}, leaseSeconds = 10)
     * public void transfer(String from, String to, int quantity) { ... }
     * }</pre>
     *
     * @return the key expressions, or empty when {@link #key()} or {@link #tree()} is set
     */
    String[] keys() default {};

    /**
     * The name of the tree that {@link #path()} is in, such as a project whose folders are locked: an expression like
     * {@link #key()}, over the same parameters, root object and beans, whose result (converted to text) must not be
     * null or blank, nor contain <code>{</code> or <code>}</code>. The method runs holding the path in that tree,
     * taken through {@link Lock#tree(String)}, with the lease, wait, {@link #fallback()} and {@link #onLost()} of a
     * key; its handle, available through {@link LockContext#current()}, has the path without a leading or trailing
     * {@code /} as its key, and a {@link LockNotAcquiredException} names the path. Set together with
     * {@link #path()}, and without {@link #key()}, {@link #keys()}, {@link #fair()} and {@link #read()}. It needs a
     * {@link Lock} bean with path locks; with one that has none (a Redlock), start-up fails.
     *
     * @return the tree's name expression, such as {@code "'project:' + #projectId"}, or empty for a method locked by
     *     key
     */
    String tree() default "";

    /**
     * The path to lock in the {@link #tree()}: an expression like {@link #key()} whose result is either a String path,
     * segments separated by {@code /} such as {@code "A/C"} ({@code ""} is the whole tree), or a collection or array
     * of segments, joined with {@code /} (an empty one is the whole tree). The path conflicts with itself, its
     * ancestors and its descendants, never with its siblings: while one call holds {@code A/C}, calls on {@code A},
     * {@code A/C/D} and the whole tree wait, and a call on {@code A/B} runs. A segment must not be blank, {@code .} or
     * {@code ..}, and a segment given as an element must not contain {@code /}; see {@code io.distlock.redis.PathLock}
     * for the path rules. Set together with {@link #tree()}.
     *
     * <pre>{@code
     * @DistributedLock(tree = "'project:' + #projectId", path = "#folders", waitSeconds = 5)
     * public void move(long projectId, List<String> folders) { ... }
     * }</pre>
     *
     * @return the path expression, such as {@code "#folder"} or {@code "''"} for the whole tree, or empty for a method
     *     locked by key
     */
    String path() default "";

    /**
     * The lease in seconds: the lock is freed after this long even if the method is still running (the method then
     * learns it lost the lock, see {@link #onLost()}). {@link #DEFAULT} uses {@code distlock.default-lease}, or, if
     * that is not set, a lease renewed in the background for as long as the method runs.
     *
     * @return the lease, from 1 to 86400 seconds, or {@link #DEFAULT}
     */
    long leaseSeconds() default DEFAULT;

    /**
     * How many seconds to wait for the lock; {@code 0} tries once and gives up at once. {@link #DEFAULT} uses {@code
     * distlock.default-wait}.
     *
     * @return the wait in seconds, at least 0, or {@link #DEFAULT}
     */
    long waitSeconds() default DEFAULT;

    /**
     * The lease as text, for what {@link #leaseSeconds()} cannot say: {@code ${...}} placeholders are resolved from
     * the application's environment, then the result is read in Spring's duration formats: {@code "500ms"}, {@code
     * "30s"}, {@code "5m"}, {@code "2h"}, ISO-8601 such as {@code "PT5M"}, or a bare number of milliseconds.
     *
     * <pre>{@code
     * @DistributedLock(key = "'report'", lease = "${jobs.report.lease:5m}", waitTime = "0s")
     * public void sendReport() { ... }
     * }</pre>
     *
     * <p>Resolved and checked when the bean is created: a placeholder without a value and no default, text in no
     * duration format, or a lease outside 1 ms to 24 hours fails start-up. Set this or {@code leaseSeconds}, not both.
     *
     * @return the lease text, or empty to use {@link #leaseSeconds()}
     */
    String lease() default "";

    /**
     * The wait as text, like {@link #lease()}: placeholders, then Spring's duration formats; {@code "0s"} tries once.
     * Resolved and checked when the bean is created; a negative wait fails start-up. Set this or {@code waitSeconds},
     * not both.
     *
     * @return the wait text, or empty to use {@link #waitSeconds()}
     */
    String waitTime() default "";

    /**
     * How long the lock stays held at least, from its acquisition, even when the method returns or throws sooner:
     * ShedLock's {@code lockAtLeastFor}, for a scheduled job that no instance may run again within this time, not even
     * one whose clock or schedule is a little off. When the method ends earlier, the rest of this time is left on the
     * key as its remaining lease in the store and counted there ({@link LockHandle#releaseHoldingAtLeast}); no one,
     * this instance included, can take the key before it ends. Text like {@link #lease()}: placeholders, then Spring's
     * duration formats.
     *
     * <pre>{@code
     * @Scheduled(cron = "0 0 * * * *")
     * @DistributedLock(key = "'hourly-report'", lease = "10m", holdAtLeast = "5m", waitTime = "0s", skipWhenBusy = true)
     * public void sendHourlyReport() { ... }
     * }</pre>
     *
     * <p>Checked when the bean is created: it must be from 1 ms to 24 hours and, with a fixed lease, not longer than
     * the lease, since the key would then outlive the lease the method asked for. Only for methods that run under their
     * lock while they run (not asynchronous ones or Kotlin suspend functions), with {@link #key()} or {@link #path()},
     * not with {@link #keys()} or {@link #read()}; elsewhere start-up fails.
     *
     * @return the minimum hold, or empty for none
     */
    String holdAtLeast() default "";

    /**
     * Whether a call that finds the lock busy returns without running, instead of throwing {@link
     * LockNotAcquiredException}: the usual wish for a scheduled job that only one instance should run per period. The
     * skipped call is logged at DEBUG by {@code io.distlock.annotation} and counted by the lock's meters as an
     * acquisition with outcome {@code not_acquired}. Only a busy lock is skipped: an interrupted wait still throws
     * {@link LockNotAcquiredException}, and a store failure still throws {@link LockBackendException}.
     *
     * <p>Only for methods returning {@code void}, since any other caller would receive a value the method never made;
     * on other methods, and together with {@link #fallback()}, start-up fails. Name a fallback to return something
     * instead.
     *
     * @return true to skip the call when the lock is busy
     */
    boolean skipWhenBusy() default false;

    /**
     * The name of a method of the same bean to call, with the same arguments, when the lock is not acquired in time,
     * instead of throwing {@link LockNotAcquiredException}. It must take the same parameter types, optionally followed
     * by a {@link LockNotAcquiredException}, and return a type assignable to this method's. The fallback runs without
     * the lock. Empty: no fallback.
     *
     * @return the fallback method's name, or empty
     */
    String fallback() default "";

    /**
     * Whether to take the lock fairly: the callers of every process are served in the order they arrived, through a
     * queue in the store ({@link Lock#fair()}). It needs a {@link Lock} bean with a fair view; with one that has none
     * (a Redlock), start-up fails. Use one kind per key: a plain acquisition does not queue. Not with {@link #tree()}.
     *
     * @return true to queue fairly
     */
    boolean fair() default false;

    /**
     * Whether to take the key's read lock: methods that read the key run together, and exclude and are excluded by
     * writers, which are the acquisitions of the key without {@code read} ({@link Lock#reading()}). A waiting writer
     * keeps new readers out. It needs a {@link Lock} bean with a read side; with one that has none (a Redlock),
     * start-up fails. It cannot be combined with {@link #fair()} or {@link #tree()}.
     *
     * @return true to take the key for reading
     */
    boolean read() default false;

    /**
     * How many calls may run at once across all instances: with a number from 1 to {@link Semaphores#MAX_PERMITS}, each
     * call takes one of the key's permits of a semaphore of that many ({@link Kind#SEMAPHORE}), instead of the key's
     * lock, and a call that finds every permit taken waits, skips with {@link #skipWhenBusy()}, or falls back like a
     * call that finds the lock busy. Every method that names the key should give the same number. It needs a {@link
     * Lock} bean whose backend has semaphores; with one that has none, start-up fails, naming the backend. It cannot be
     * combined with {@link #keys()}, {@link #tree()}, {@link #fair()}, {@link #read()} or {@link #holdAtLeast()}. 0,
     * the default, takes the key's lock.
     *
     * @return the number of permits, or 0 for the lock
     */
    int permits() default 0;

    /**
     * What to do when the method finished but its lock had been lost meanwhile (the lease ran out or another owner
     * took the key). {@link OnLockLost#DEFAULT} uses {@code distlock.on-lost}. A grant that reached this instance after
     * its own lease had run out never runs the method, whatever this says: the call fails with {@link
     * LockLostException}.
     *
     * @return the reaction to a lost lock
     */
    OnLockLost onLost() default OnLockLost.DEFAULT;
}
