package io.distlock.test;

import java.util.ArrayList;
import java.util.List;

/**
 * What a test asked for beyond the defaults; kept apart from the server so a restart reuses exactly the same options.
 */
record ServerOptions(String password, List<String> configDirectives) {

    ServerOptions {
        configDirectives = List.copyOf(configDirectives);
    }

    /** The options as redis-server arguments, to be appended after the provider's own arguments. */
    List<String> redisArgs() {
        List<String> args = new ArrayList<>();
        if (password != null) {
            args.add("--requirepass");
            args.add(password);
        }
        for (String directive : configDirectives) {
            args.addAll(ConfigArgs.of(directive));
        }
        return args;
    }
}
