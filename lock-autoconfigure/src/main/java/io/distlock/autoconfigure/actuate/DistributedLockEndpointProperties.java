package io.distlock.autoconfigure.actuate;

import java.util.HashSet;
import java.util.Set;
import org.springframework.boot.actuate.endpoint.Show;
import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * What the {@code distlock} Actuator endpoint shows of keys, following Spring Boot's own endpoints that show values
 * ({@code management.endpoint.env.show-values}): lock keys are often built from what users sent, such as an e-mail
 * address or a customer number.
 */
@ConfigurationProperties("management.endpoint.distlock")
public class DistributedLockEndpointProperties {

    /**
     * When to show keys, tree names and the keys threads wait for, rather than ******; a key's state is looked up only
     * for a caller who may see keys.
     */
    private Show showValues = Show.NEVER;

    /** Roles that may see keys when show-values is when-authorized; empty means every authenticated user. */
    private Set<String> roles = new HashSet<>();

    private final Release release = new Release();

    public Show getShowValues() {
        return showValues;
    }

    public void setShowValues(Show showValues) {
        this.showValues = showValues;
    }

    public Set<String> getRoles() {
        return roles;
    }

    public void setRoles(Set<String> roles) {
        this.roles = roles;
    }

    public Release getRelease() {
        return release;
    }

    /** DELETE /actuator/distlock/{key}?fencingToken=N, which releases a stuck key for an operator. */
    public static class Release {

        /**
         * Whether operators may release a key through the endpoint, naming the fencing token of the hold to release;
         * every use is logged at WARN with the caller's name.
         */
        private boolean enabled;

        /**
         * Whether to allow releasing where Spring Security is absent, so that nothing checks who calls; without it,
         * releasing fails closed there.
         */
        private boolean withoutSecurity;

        public boolean isEnabled() {
            return enabled;
        }

        public void setEnabled(boolean enabled) {
            this.enabled = enabled;
        }

        public boolean isWithoutSecurity() {
            return withoutSecurity;
        }

        public void setWithoutSecurity(boolean withoutSecurity) {
            this.withoutSecurity = withoutSecurity;
        }
    }
}
