package io.distlock.autoconfigure.readme;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.springframework.util.ClassUtils;

/**
 * Sentences that the documentation once said and that the code has since made false: each says a feature is missing,
 * and names where the API now has it. A page that says one of them again misleads its reader; {@link
 * DocumentationClaimsTest} fails on it, naming the page, the line and the API. Add a claim here when a feature that a
 * page called missing arrives.
 */
final class RetractedClaims {

    /**
     * One claim of a missing feature.
     *
     * @param said how pages said it, matched within a line, case aside
     * @param feature the feature, for the failure message
     * @param api a class, or a class and a member after {@code #}, whose presence makes the claim false
     */
    record Claim(Pattern said, String feature, String api) {

        static Claim of(String regex, String feature, String api) {
            return new Claim(Pattern.compile(regex, Pattern.CASE_INSENSITIVE), feature, api);
        }

        /** Whether the API that makes the claim false is there. */
        boolean apiExists() {
            String[] parts = api.split("#", 2);
            if (!ClassUtils.isPresent(parts[0], null)) {
                return false;
            }
            if (parts.length == 1) {
                return true;
            }
            Class<?> type = ClassUtils.resolveClassName(parts[0], null);
            return ClassUtils.hasAtLeastOneMethodWithName(type, parts[1]);
        }
    }

    static final List<Claim> CLAIMS = List.of(
            Claim.of(
                    "minimum hold time[^.]*does not exist yet|no minimum hold time|nothing like `lockAtLeastFor`",
                    "a minimum hold",
                    "io.distlock.DistributedLock#holdAtLeast"),
            Claim.of(
                    "`(default)?lockAtLeastFor[^`]*` \\| none",
                    "a minimum hold",
                    "io.distlock.DistributedLock#holdAtLeast"),
            Claim.of("no \"skip quietly\" mode", "a quiet skip", "io.distlock.DistributedLock#skipWhenBusy"),
            Claim.of(
                    "no `\"30m\"` text|take no\\s+duration text|whole seconds, written as numbers",
                    "durations as text",
                    "io.distlock.DistributedLock#lease"),
            Claim.of(
                    "no leader election|`LockRegistryLeaderInitiator` \\| none",
                    "leader election",
                    "io.distlock.leader.LeadershipGrantedEvent"),
            Claim.of(
                    "no in-memory (`Lock`|lock)|`DefaultLockRegistry` \\(in memory\\) \\| none",
                    "an in-memory lock",
                    "io.distlock.memory.InMemoryLeaseStore"));

    private RetractedClaims() {}

    /**
     * The lines of a page that make a claim whose API exists.
     *
     * @return one description per line and claim, naming the line (from 1), the feature and the API
     */
    static List<String> madeIn(List<String> page) {
        List<String> found = new ArrayList<>();
        for (int i = 0; i < page.size(); i++) {
            for (Claim claim : CLAIMS) {
                if (claim.said().matcher(page.get(i)).find() && claim.apiExists()) {
                    found.add("line " + (i + 1) + " says " + claim.feature() + " is missing, but " + claim.api()
                            + " exists: " + page.get(i).strip());
                }
            }
        }
        return found;
    }
}
