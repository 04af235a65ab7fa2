package io.distlock.autoconfigure.actuate;

import org.jspecify.annotations.Nullable;
import org.springframework.boot.actuate.endpoint.SecurityContext;

/**
 * Who may release a key through {@link DistributedLockEndpoint#release}: nobody unless {@code
 * management.endpoint.distlock.release.enabled}; then an authenticated caller where Spring Security is present, and,
 * where it is absent and nothing checks who calls, nobody unless {@code
 * management.endpoint.distlock.release.without-security} opens it anyway.
 *
 * @param enabled whether releasing is switched on
 * @param securityPresent whether Spring Security is on the class path
 * @param withoutSecurity whether to allow releasing where Spring Security is absent
 */
public record OperatorReleasePolicy(boolean enabled, boolean securityPresent, boolean withoutSecurity) {

    /** Releasing switched off, as by default. */
    public static final OperatorReleasePolicy OFF = new OperatorReleasePolicy(false, false, false);

    /**
     * Why the caller may not release a key, naming the property that decides.
     *
     * @param caller who asks
     * @return the reason, or null if the caller may release
     */
    @Nullable
    String refusal(SecurityContext caller) {
        if (!enabled) {
            return "releasing a key is switched off; set management.endpoint.distlock.release.enabled=true to let"
                    + " operators release a stuck key";
        }
        if (securityPresent) {
            return caller.getPrincipal() == null ? "releasing a key needs an authenticated caller" : null;
        }
        return withoutSecurity
                ? null
                : "releasing a key needs Spring Security, which is not present, so nothing checks who asks; add it,"
                        + " or set management.endpoint.distlock.release.without-security=true";
    }

    /**
     * The caller's name for the log.
     *
     * @param caller who asks
     * @return the principal's name, or {@code unauthenticated}
     */
    static String operator(SecurityContext caller) {
        return caller.getPrincipal() == null
                ? "unauthenticated"
                : caller.getPrincipal().getName();
    }
}
