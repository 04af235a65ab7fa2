package io.distlock.annotation;

import io.distlock.DistributedLock;
import io.distlock.Lease;
import java.lang.reflect.Method;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.beans.factory.config.ConfigurableBeanFactory;
import org.springframework.format.datetime.standard.DurationFormatterUtils;

/**
 * The lease, wait and minimum hold of a {@code @DistributedLock} method, from its numeric attributes ({@code
 * leaseSeconds}, {@code waitSeconds}), its text attributes ({@code lease}, {@code waitTime}, {@code holdAtLeast}, whose
 * placeholders are resolved through the bean factory), or the defaults; a problem is a {@link
 * DistributedLockDefinitionException}.
 */
final class LockDurations {

    private static final long MAX_LEASE_SECONDS = Lease.MAX_FIXED.toSeconds();
    private static final String DURATION_FORMATS =
            "write it as \"500ms\", \"30s\", \"5m\", \"2h\", \"PT5M\" or a number of milliseconds, optionally from a"
                    + " placeholder such as \"${jobs.report.lease:5m}\"";

    private final @Nullable BeanFactory beanFactory;
    private final LockDefaults defaults;

    LockDurations(@Nullable BeanFactory beanFactory, LockDefaults defaults) {
        this.beanFactory = beanFactory;
        this.defaults = defaults;
    }

    Lease lease(Method method, DistributedLock annotation) {
        return annotation.lease().isEmpty()
                ? lease(method, annotation.leaseSeconds())
                : leaseText(method, annotation.lease(), annotation.leaseSeconds());
    }

    Duration waitTime(Method method, DistributedLock annotation) {
        return annotation.waitTime().isEmpty()
                ? waitTime(method, annotation.waitSeconds())
                : waitText(method, annotation.waitTime(), annotation.waitSeconds());
    }

    /**
     * The minimum hold of {@code holdAtLeast}, or null when it is not set.
     *
     * @param lease the method's lease, which a minimum must not outlast when it is fixed
     */
    @Nullable
    Duration holdAtLeast(Method method, DistributedLock annotation, Lease lease) {
        String text = annotation.holdAtLeast();
        if (text.isEmpty()) {
            return null;
        }
        Duration minimum = fixedLease(method, "holdAtLeast", text).duration();
        if (!lease.isRenewed() && minimum.compareTo(lease.duration()) > 0) {
            throw new DistributedLockDefinitionException(
                    method,
                    "holdAtLeast \"" + text + "\" is " + minimum + ", longer than the fixed lease of "
                            + lease.duration() + ", so the key would outlive the lease the method asked for; shorten"
                            + " holdAtLeast or lengthen the lease");
        }
        return minimum;
    }

    private Lease lease(Method method, long seconds) {
        if (seconds == DistributedLock.DEFAULT) {
            return defaults.defaultLease();
        }
        if (seconds < 1 || seconds > MAX_LEASE_SECONDS) {
            throw new DistributedLockDefinitionException(
                    method,
                    "leaseSeconds must be from 1 to " + MAX_LEASE_SECONDS + ", or left unset for the default, but was "
                            + seconds);
        }
        return Lease.fixed(Duration.ofSeconds(seconds));
    }

    private Duration waitTime(Method method, long seconds) {
        if (seconds == DistributedLock.DEFAULT) {
            return defaults.waitTime();
        }
        if (seconds < 0) {
            throw new DistributedLockDefinitionException(
                    method,
                    "waitSeconds must be 0 (try once) or more, or left unset for the default, but was " + seconds);
        }
        return Duration.ofSeconds(seconds);
    }

    private Lease leaseText(Method method, String text, long seconds) {
        notBoth(method, "lease", text, "leaseSeconds", seconds);
        return fixedLease(method, "lease", text);
    }

    /** A duration attribute read as a fixed lease, whose range a lease and a minimum hold share. */
    private Lease fixedLease(Method method, String attribute, String text) {
        Duration duration = duration(method, attribute, text);
        try {
            return Lease.fixed(duration);
        } catch (IllegalArgumentException outOfRange) {
            throw new DistributedLockDefinitionException(
                    method,
                    attribute + " \"" + text + "\" is " + duration + ", but must be from 1 ms to "
                            + Lease.MAX_FIXED.toHours() + " hours");
        }
    }

    private Duration waitText(Method method, String text, long seconds) {
        notBoth(method, "waitTime", text, "waitSeconds", seconds);
        Duration wait = duration(method, "waitTime", text);
        if (wait.isNegative()) {
            throw new DistributedLockDefinitionException(
                    method, "waitTime \"" + text + "\" is " + wait + ", but must be 0 (try once) or more");
        }
        return wait;
    }

    /** A placeholder the environment has no value for, whether its resolver threw or left it in place. */
    private static DistributedLockDefinitionException unresolved(
            Method method, String attribute, String text, String reason) {
        return new DistributedLockDefinitionException(
                method,
                attribute + " \"" + text + "\" could not be resolved (" + reason + "); define the property or give a"
                        + " default, as in \"${jobs.report.lease:5m}\"");
    }

    /** Refuses a duration given both as text and in seconds. */
    private static void notBoth(
            Method method, String textAttribute, String text, String secondsAttribute, long seconds) {
        if (seconds != DistributedLock.DEFAULT) {
            throw new DistributedLockDefinitionException(
                    method,
                    "set " + textAttribute + " or " + secondsAttribute + ", not both, but " + textAttribute + " is \""
                            + text + "\" and " + secondsAttribute + " is " + seconds);
        }
    }

    /** Resolves the placeholders of a duration attribute, then reads it in one of Spring's duration formats. */
    private Duration duration(Method method, String attribute, String text) {
        String resolved;
        try {
            resolved = beanFactory instanceof ConfigurableBeanFactory configurable
                    ? configurable.resolveEmbeddedValue(text)
                    : text;
        } catch (IllegalArgumentException unresolvable) {
            throw unresolved(method, attribute, text, unresolvable.getMessage());
        }
        if (resolved != null && resolved.contains("${")) {
            throw unresolved(method, attribute, text, "\"" + resolved + "\" is left");
        }
        String shown = resolved == null || resolved.equals(text)
                ? "\"" + text + "\""
                : "\"" + text + "\" (\"" + resolved + "\")";
        if (resolved == null || resolved.isBlank()) {
            throw new DistributedLockDefinitionException(
                    method, attribute + " " + shown + " is blank; " + DURATION_FORMATS);
        }
        try {
            return DurationFormatterUtils.detectAndParse(resolved.strip());
        } catch (IllegalArgumentException | DateTimeParseException unreadable) {
            throw new DistributedLockDefinitionException(
                    method, attribute + " " + shown + " is not a duration; " + DURATION_FORMATS);
        }
    }
}
