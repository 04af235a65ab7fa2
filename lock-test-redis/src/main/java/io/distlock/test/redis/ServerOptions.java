package io.distlock.test.redis;

import java.util.ArrayList;
import java.util.List;

/**
 * What a test asked for beyond the defaults; kept apart from the server so a restart reuses exactly the same options.
 * {@code tls} is null for a server without a TLS port.
 */
record ServerOptions(String password, List<String> configDirectives, ServerTls tls) {

    ServerOptions {
        configDirectives = List.copyOf(configDirectives);
    }

    /** The same options with a TLS port. */
    ServerOptions withTls(ServerTls tls) {
        return new ServerOptions(password, configDirectives, tls);
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
        if (tls != null) {
            args.addAll(tls.redisArgs());
        }
        return args;
    }
}
