package io.distlock.bench.firstcall;

import java.util.List;

/** What a measured application calls, and how it is configured. */
enum Way {
    /** The annotated service, with the start-up preparation switched off: what every first call paid before it. */
    UNPREPARED(
            "`@DistributedLock` call, `distlock.startup.prepare=false`", List.of("--distlock.startup.prepare=false")),
    /** The annotated service with default settings. */
    PREPARED("`@DistributedLock` call, default settings", List.of()),
    /**
     * A plain {@code GET} through Spring Data Redis's template with default settings, for reference: what a first
     * Redis command of a fresh JVM costs when its connection is already made.
     */
    TEMPLATE_GET("`StringRedisTemplate` GET, for reference", List.of("--bench.call=get"));

    private final String label;
    private final List<String> arguments;

    Way(String label, List<String> arguments) {
        this.label = label;
        this.arguments = arguments;
    }

    String label() {
        return label;
    }

    List<String> arguments() {
        return arguments;
    }
}
