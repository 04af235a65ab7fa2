package io.distlock.autoconfigure.actuate;

import io.distlock.internal.text.PrintableText;
import io.distlock.monitor.HeldLock;
import io.distlock.monitor.InspectableLock;
import io.distlock.monitor.KeyState;
import io.distlock.monitor.LockKind;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.OperationResponseBody;
import org.springframework.boot.actuate.endpoint.SecurityContext;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.actuate.endpoint.annotation.DeleteOperation;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;

/**
 * The {@code distlock} Actuator endpoint: which locks this instance holds and which keys its threads wait for, and,
 * for one key, how it stands on the server and who holds it. It never shows an owner token. Its one write, {@code
 * DELETE /actuator/distlock/{key}?fencingToken=N}, releases a stuck key for an operator ({@link #release}); it is off
 * unless {@code management.endpoint.distlock.release.enabled}, and {@link OperatorReleasePolicy} says who may use it.
 *
 * <p>Keys are often built from what users sent, so they are shown as Spring Boot's own endpoints show values ({@code
 * management.endpoint.distlock.show-values} and {@code roles}): to a caller who may not see them, every key and tree
 * name is {@value #MASK}, the waiting threads are counted under one {@value #MASK} key, and no key is looked up.
 *
 * <p>Times are ISO-8601 text ({@link java.time.Instant#toString()}, {@link Duration#toString()}), so the JSON is the
 * same whichever Jackson version the application serializes it with.
 */
@Endpoint(id = "distlock")
public class DistributedLockEndpoint {

    /** What {@link HeldLockDescriptor#thread()} says for a lock that any thread may release. */
    public static final String ANY_THREAD = "released from any thread";

    /** What a key or tree name is shown as to a caller who may not see it. */
    public static final String MASK = "******";

    private static final Logger log = LoggerFactory.getLogger(DistributedLockEndpoint.class);

    private final InspectableLock lock;
    private final Show showValues;
    private final Set<String> roles;
    private final OperatorReleasePolicy releases;

    /**
     * An endpoint that shows this lock, its keys to nobody.
     *
     * @param lock the lock to show
     */
    public DistributedLockEndpoint(InspectableLock lock) {
        this(lock, Show.NEVER, Set.of());
    }

    /**
     * An endpoint that shows this lock, its keys as {@code showValues} and {@code roles} allow.
     *
     * @param lock the lock to show
     * @param showValues when to show keys and tree names
     * @param roles the roles that may see them with {@link Show#WHEN_AUTHORIZED}; empty for every authenticated user
     */
    public DistributedLockEndpoint(InspectableLock lock, Show showValues, Set<String> roles) {
        this(lock, showValues, roles, OperatorReleasePolicy.OFF);
    }

    /**
     * An endpoint that shows this lock as {@code showValues} and {@code roles} allow, and releases keys for operators
     * as {@code releases} allows.
     *
     * @param lock the lock to show
     * @param showValues when to show keys and tree names
     * @param roles the roles that may see them with {@link Show#WHEN_AUTHORIZED}; empty for every authenticated user
     * @param releases who may release a key
     */
    public DistributedLockEndpoint(
            InspectableLock lock, Show showValues, Set<String> roles, OperatorReleasePolicy releases) {
        this.lock = lock;
        this.showValues = showValues;
        this.roles = Set.copyOf(roles);
        this.releases = releases;
    }

    /**
     * What this instance holds and waits for, from memory, without a server call.
     *
     * @param caller who asks, which decides whether keys are shown
     * @return the holds, oldest first, and the waiting threads by key
     */
    @ReadOperation
    public LocksDescriptor locks(SecurityContext caller) {
        boolean shown = showValues.isShown(caller, roles);
        List<HeldLockDescriptor> held = lock.heldLocks().stream()
                .map(hold -> HeldLockDescriptor.of(hold, shown))
                .toList();
        Map<String, Integer> waiting = lock.waitingThreads();
        // Counted from the same snapshots as the lists, so that the counts always match what is listed.
        int waitingCount = waiting.values().stream().mapToInt(Integer::intValue).sum();
        if (!shown) {
            waiting = waitingCount == 0 ? Map.of() : Map.of(MASK, waitingCount);
        }
        return new LocksDescriptor(held, waiting, held.size(), waitingCount);
    }

    /**
     * How one key stands on the server: one read-only command, which takes no lock.
     *
     * @param caller who asks, who must be allowed to see keys
     * @param key the key, as the application passes it to {@link io.distlock.Lock}
     * @return the key's state
     * @throws InvalidEndpointRequestException if the caller may not see keys, the key is invalid, or the lock is a
     *     Redlock, which cannot tell one key's state (Actuator answers 400)
     * @throws io.distlock.LockBackendException if the server did not answer in time
     */
    @ReadOperation
    public KeyDescriptor key(SecurityContext caller, @Selector String key) {
        if (!showValues.isShown(caller, roles)) {
            // Whether a key is held tells about the user the key names, as much as the key itself would.
            String reason = "keys are not shown to this caller, so no key is looked up; see"
                    + " management.endpoint.distlock.show-values (never, when-authorized or always) and"
                    + " management.endpoint.distlock.roles";
            throw new InvalidEndpointRequestException(reason, reason);
        }
        KeyState state;
        try {
            state = lock.keyState(key);
        } catch (IllegalArgumentException e) {
            throw invalid(Objects.requireNonNullElse(e.getMessage(), "invalid key"), e);
        } catch (UnsupportedOperationException e) {
            throw invalid(
                    "a Redlock cannot report one key's state, since each node has its own copy and a majority decides;"
                            + " the endpoint without a key lists this instance's holds and waiters",
                    e);
        }
        return new KeyDescriptor(
                state.key(),
                state.held(),
                text(state.remainingLease()),
                state.heldByThisInstance(),
                state.holder(),
                state.heldSince() == null ? null : state.heldSince().toString());
    }

    /**
     * Releases a stuck key for an operator, but only the hold the operator names by its fencing token (from {@code
     * GET /actuator/distlock} on the holding instance, or the holder's logs): a hold granted since is left alone. The
     * holder's instance hears that its hold was lost ({@link
     * io.distlock.LockLostException.Reason#RELEASED_BY_OPERATOR}) where the store can tell it, and otherwise at its
     * next renewal; the work under the hold may still be running. Every use is logged at WARN with the caller's name.
     *
     * @param caller who asks: allowed by {@link OperatorReleasePolicy}, and allowed to see keys
     * @param key the key, as the application passes it to {@link io.distlock.Lock}
     * @param fencingToken the fencing token of the hold to release
     * @return whether that hold was released
     * @throws InvalidEndpointRequestException if releasing is off or the caller may not, the key is invalid, or the
     *     store cannot release for an operator (Actuator answers 400)
     * @throws io.distlock.LockBackendException if the server did not answer in time
     */
    @DeleteOperation
    public ReleaseDescriptor release(SecurityContext caller, @Selector String key, long fencingToken) {
        String refusal = releases.refusal(caller);
        if (refusal == null && !showValues.isShown(caller, roles)) {
            refusal = "keys are not shown to this caller, so none is released; see"
                    + " management.endpoint.distlock.show-values and management.endpoint.distlock.roles";
        }
        if (refusal != null) {
            throw new InvalidEndpointRequestException(refusal, refusal);
        }
        boolean released;
        try {
            released = lock.releaseForOperator(key, fencingToken);
        } catch (IllegalArgumentException e) {
            throw invalid(Objects.requireNonNullElse(e.getMessage(), "invalid key"), e);
        } catch (UnsupportedOperationException e) {
            throw invalid(Objects.requireNonNullElse(e.getMessage(), "this lock cannot release a key"), e);
        }
        String operator = OperatorReleasePolicy.operator(caller);
        if (released) {
            log.warn(
                    "distlock: {} released lock '{}', held under fencing token {}; its holder loses it",
                    operator,
                    PrintableText.of(key),
                    fencingToken);
        } else {
            log.warn(
                    "distlock: {} asked to release lock '{}' under fencing token {}; nothing was released, as no hold"
                            + " with that token holds it",
                    operator,
                    PrintableText.of(key),
                    fencingToken);
        }
        return new ReleaseDescriptor(key, fencingToken, released);
    }

    // The reason is what Actuator answers the request with; the message, what a log shows.
    private static InvalidEndpointRequestException invalid(String reason, RuntimeException cause) {
        return new InvalidEndpointRequestException(reason, reason, cause);
    }

    private static @Nullable String text(@Nullable Duration duration) {
        return duration == null ? null : duration.toString();
    }

    /**
     * What this instance holds and waits for.
     *
     * @param held the holds, oldest first
     * @param waiting the number of waiting threads by key (for a path lock, by the tree's name); no zero counts; all
     *     of them under one {@value #MASK} key to a caller who may not see keys
     * @param heldCount how many holds {@code held} lists
     * @param waitingCount how many threads {@code waiting} counts in all
     */
    public record LocksDescriptor(
            List<HeldLockDescriptor> held, Map<String, Integer> waiting, int heldCount, int waitingCount)
            implements OperationResponseBody {}

    /**
     * One hold of this instance.
     *
     * @param key the key, or for a path lock the path; {@value #MASK} to a caller who may not see keys
     * @param tree the tree of a path lock, or {@value #MASK}; null for every other kind
     * @param kind how the lock was taken
     * @param since when the hold began by this machine's clock, as an ISO-8601 instant
     * @param heldFor how long the hold has lasted, as an ISO-8601 duration
     * @param remainingLease this instance's conservative estimate of the lease left, as an ISO-8601 duration
     * @param lease {@code renewed} if the lease is renewed automatically, {@code fixed} otherwise
     * @param fencingToken the hold's fencing token
     * @param acquiredBy the name of the thread that acquired the lock
     * @param thread the name of the only thread that may release the lock (one taken through {@link
     *     io.distlock.Lock#asJavaLock}), or {@value #ANY_THREAD}
     * @param reentrancyDepth how many open handles share the hold: 1, plus one per nested acquisition
     */
    public record HeldLockDescriptor(
            String key,
            @Nullable String tree,
            LockKind kind,
            String since,
            String heldFor,
            String remainingLease,
            String lease,
            long fencingToken,
            String acquiredBy,
            String thread,
            int reentrancyDepth) {

        static HeldLockDescriptor of(HeldLock hold, boolean shown) {
            String thread = hold.boundThread();
            String tree = hold.tree();
            return new HeldLockDescriptor(
                    shown ? hold.key() : MASK,
                    tree == null || shown ? tree : MASK,
                    hold.kind(),
                    hold.since().toString(),
                    hold.heldFor().toString(),
                    hold.remainingLease().toString(),
                    hold.renewed() ? "renewed" : "fixed",
                    hold.fencingToken(),
                    hold.acquiredBy(),
                    thread == null ? ANY_THREAD : thread,
                    hold.handles());
        }
    }

    /**
     * What an operator's release did.
     *
     * @param key the key
     * @param fencingToken the fencing token the operator named
     * @param released whether the hold with that token held the key and was released
     */
    public record ReleaseDescriptor(String key, long fencingToken, boolean released) implements OperationResponseBody {}

    /**
     * How one key stands on the server.
     *
     * @param key the key asked about
     * @param held whether anyone holds the key
     * @param remainingLease the lease left as the server counts it, as an ISO-8601 duration; null if the key is free
     * @param heldByThisInstance whether a hold of this instance owns the key
     * @param holder the instance name of the key's holder ({@code distlock.instance-name}), as the store keeps it; null
     *     if the key is free or its store names no single holder (readers, a path)
     * @param heldSince when the holder took the key, on the store's clock, as an ISO-8601 instant; null whenever
     *     {@code holder} is
     */
    public record KeyDescriptor(
            String key,
            boolean held,
            @Nullable String remainingLease,
            boolean heldByThisInstance,
            @Nullable String holder,
            @Nullable String heldSince)
            implements OperationResponseBody {}
}
