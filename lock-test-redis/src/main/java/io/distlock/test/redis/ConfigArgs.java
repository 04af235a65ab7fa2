package io.distlock.test.redis;

import java.util.ArrayList;
import java.util.List;

/**
 * Turns a {@code redis.conf} directive into {@code redis-server} command-line arguments.
 *
 * <p>redis-server quotes each command-line argument again before parsing it as a config line, so a directive must
 * arrive as one argument per token with the quotes already removed: {@code user app on >pw} becomes {@code --user},
 * {@code app}, {@code on}, {@code >pw}, and {@code save ""} becomes {@code --save} and an empty argument.
 */
final class ConfigArgs {

    private ConfigArgs() {}

    static List<String> of(String directive) {
        List<String> tokens = tokenize(directive);
        if (tokens.isEmpty()) {
            throw new IllegalArgumentException("Empty Redis config directive");
        }
        String name = tokens.get(0);
        tokens.set(0, name.startsWith("--") ? name : "--" + name);
        return tokens;
    }

    private static List<String> tokenize(String line) {
        List<String> tokens = new ArrayList<>();
        StringBuilder token = new StringBuilder();
        boolean inToken = false;
        char quote = 0;
        for (char c : line.toCharArray()) {
            if (quote != 0) {
                if (c == quote) {
                    quote = 0;
                } else {
                    token.append(c);
                }
            } else if (c == '"' || c == '\'') {
                quote = c;
                inToken = true;
            } else if (Character.isWhitespace(c)) {
                if (inToken) {
                    tokens.add(token.toString());
                    token.setLength(0);
                    inToken = false;
                }
            } else {
                token.append(c);
                inToken = true;
            }
        }
        if (quote != 0) {
            throw new IllegalArgumentException("Unbalanced quote in Redis config directive: " + line);
        }
        if (inToken) {
            tokens.add(token.toString());
        }
        return tokens;
    }
}
