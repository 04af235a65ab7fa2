package io.distlock;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a Spring bean's method only while holding the distributed lock named by {@link #key()}, or all the locks named
 * by {@link #keys()}.
 *
 * <pre>{@code
 * @DistributedLock(key = "'stock:' + #sku", leaseSeconds = 10, waitSeconds = 3)
 * public int deduct(String sku, int quantity) { ... }
 * }</pre>
 *
 * <p>The lock is taken before the method runs and released after it returns or throws. If it cannot be taken within
 * the wait, the method does not run: a {@link LockNotAcquiredException} is thrown, or the {@link #fallback()} method
 * is called instead. There is no way to run the method without its lock.
 *
 * <p>Everything about the annotation is checked when the bean is created, so a mistake fails application start-up
 * rather than the first call: the expression's syntax and the parameter names it uses, the lease and wait values, the
 * fallback method, and the return type (methods returning {@code CompletionStage}, {@code Future} or a Reactive
 * Streams {@code Publisher} are refused, since their work would outlive the lock).
 *
 * <p>Like {@code @Transactional}, the annotation works through a Spring proxy: calls from inside the same bean
 * ({@code this.deduct(...)}) are not locked. The lock is ordered outside the transaction, so with {@code
 * @Transactional} on the same method the transaction commits or rolls back before the lock is released.
 *
 * <p>Nested annotated calls on the same thread with the same key re-enter the held lock; with different keys they
 * take both locks, outer first. The held lock is available to the method and whatever it calls on the same thread
 * through {@link LockContext#current()}, for example to pass its fencing token to a store.
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
     * not be null or blank, nor an array or collection: use {@link #keys()} to take several keys. Set either this or
     * {@link #keys()}.
     *
     * <p>Write the expression in code: values that reach it as arguments are only values, never evaluated, but an
     * expression taken from a request would be.
     *
     * @return the key expression, or empty when {@link #keys()} is set
     */
    String key() default "";

    /**
     * Several locks' names, taken all or none before the method runs, as {@link Lock#tryAcquireAll} takes them: in one
     * global order, so that methods with overlapping keys never deadlock. Each element is an expression like {@link
     * #key()} whose result is one key, or an array or collection of keys (an empty one adds none); duplicates are
     * taken once. Each key's handle is available through {@link LockContext#current(String)}, and the {@link
     * #waitSeconds() wait} is for all the keys together. Set either this or {@link #key()}.
     *
     * <pre>{@code
     * @DistributedLock(keys = {"'stock:' + #from", "'stock:' + #to"}, leaseSeconds = 10)
     * public void transfer(String from, String to, int quantity) { ... }
     * }</pre>
     *
     * @return the key expressions, or empty when {@link #key()} is set
     */
    String[] keys() default {};

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
     * queue in Redis ({@link Lock#fair()}). It needs a {@link Lock} bean with a fair view; with one that has none (a
     * Redlock), start-up fails. Use one kind per key: a plain acquisition does not queue.
     *
     * @return true to queue fairly
     */
    boolean fair() default false;

    /**
     * Whether to take the key's read lock: methods that read the key run together, and exclude and are excluded by
     * writers, which are the acquisitions of the key without {@code read} ({@link Lock#reading()}). A waiting writer
     * keeps new readers out. It needs a {@link Lock} bean with a read side; with one that has none (a Redlock),
     * start-up fails. It cannot be combined with {@link #fair()}.
     *
     * @return true to take the key for reading
     */
    boolean read() default false;

    /**
     * What to do when the method finished but its lock had been lost meanwhile (the lease ran out or another owner
     * took the key). {@link OnLockLost#DEFAULT} uses {@code distlock.on-lost}.
     *
     * @return the reaction to a lost lock
     */
    OnLockLost onLost() default OnLockLost.DEFAULT;
}
