package io.distlock.internal.text;

import org.jspecify.annotations.Nullable;

/**
 * Text from the application's callers, such as a key built from a request, made safe to put into a log line or an
 * exception's message: control characters ({@code \r}, {@code \n}, {@code \t} and the others), line and paragraph
 * separators and invisible formatting characters (such as the right-to-left override) are written as escapes
 * ({@code \r}, {@code \n}, {@code \t}, {@code \}{@code u202E}). A key that contains a line break then cannot end the
 * log line it appears in and forge the next one, nor reorder what a reader sees. Everything else, Unicode letters
 * included, is kept as it is.
 */
public final class PrintableText {

    private PrintableText() {}

    /**
     * The text with every character that could forge or disguise a log line escaped.
     *
     * @param text the text, or any object, whose {@code toString()} is used
     * @return the escaped text; {@code "null"} for null
     */
    public static String of(@Nullable Object text) {
        String value = String.valueOf(text);
        int first = 0;
        while (first < value.length() && !needsEscape(value.charAt(first))) {
            first++;
        }
        if (first == value.length()) {
            return value;
        }
        StringBuilder escaped = new StringBuilder(value.length() + 16).append(value, 0, first);
        for (int i = first; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\r' -> escaped.append("\\r");
                case '\n' -> escaped.append("\\n");
                case '\t' -> escaped.append("\\t");
                default -> {
                    if (needsEscape(c)) {
                        escaped.append(String.format("\\u%04X", (int) c));
                    } else {
                        escaped.append(c);
                    }
                }
            }
        }
        return escaped.toString();
    }

    private static boolean needsEscape(char c) {
        if (Character.isISOControl(c)) {
            return true;
        }
        int type = Character.getType(c);
        return type == Character.LINE_SEPARATOR || type == Character.PARAGRAPH_SEPARATOR || type == Character.FORMAT;
    }
}
