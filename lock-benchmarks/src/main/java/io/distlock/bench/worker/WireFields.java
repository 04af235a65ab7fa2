package io.distlock.bench.worker;

import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The one-line {@code name=value name=value} form in which workloads and results cross between processes. Values are
 * numbers, enum names, generated keys and Base64, none of which contains a space; free text is Base64-encoded.
 */
final class WireFields {

    private WireFields() {}

    static String format(Map<String, String> fields) {
        StringBuilder line = new StringBuilder();
        fields.forEach((name, value) -> {
            if (value.isEmpty() || value.indexOf(' ') >= 0 || value.indexOf('\n') >= 0) {
                throw new IllegalArgumentException("field " + name + " needs a non-empty value without spaces");
            }
            line.append(line.length() == 0 ? "" : " ").append(name).append('=').append(value);
        });
        return line.toString();
    }

    static Map<String, String> parse(String line) {
        Map<String, String> fields = new LinkedHashMap<>();
        for (String field : line.trim().split(" ")) {
            int equals = field.indexOf('=');
            if (equals <= 0) {
                throw new IllegalArgumentException("malformed field '" + field + "' in: " + line);
            }
            fields.put(field.substring(0, equals), field.substring(equals + 1));
        }
        return fields;
    }

    static String get(Map<String, String> fields, String name) {
        String value = fields.get(name);
        if (value == null) {
            throw new IllegalArgumentException("field " + name + " is missing from " + fields.keySet());
        }
        return value;
    }

    static String text(String value) {
        return Base64.getUrlEncoder().encodeToString(value.getBytes(StandardCharsets.UTF_8));
    }

    static String untext(String encoded) {
        return new String(Base64.getUrlDecoder().decode(encoded), StandardCharsets.UTF_8);
    }
}
