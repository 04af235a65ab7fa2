package io.distlock.spi;

import io.distlock.internal.text.PrintableText;
import java.net.InetAddress;
import java.net.UnknownHostException;
import org.jspecify.annotations.Nullable;

/**
 * The name a lock instance stores with every hold it takes, so that an operator who asks who holds a key gets an
 * answer: {@link io.distlock.monitor.KeyState#holder()}, the Actuator endpoint and {@link
 * io.distlock.LockNotAcquiredException} show it. It names a process, not a thread, and is not secret: never put
 * credentials in it.
 */
public final class InstanceNames {

    /** The longest name a store keeps. */
    public static final int MAX_LENGTH = 100;

    /** What a name may be, as the messages that refuse one say it. */
    public static final String ALLOWED = "1 to " + MAX_LENGTH + " printable characters, not blank, without '+' or '*'";

    private InstanceNames() {}

    /**
     * The name of this process when none is configured: {@code application@host}, or {@code pid@host} without an
     * application name. The host is {@code HOSTNAME} (which container platforms set to the pod or container), else
     * {@code COMPUTERNAME}, else what the JVM knows as the local host's name. Characters a name may not contain are
     * replaced by {@code _}, and a name too long is cut.
     *
     * @param application the application's name, such as {@code spring.application.name}, or null
     * @return a valid name
     */
    public static String ofThisProcess(@Nullable String application) {
        String who = application == null || application.isBlank()
                ? Long.toString(ProcessHandle.current().pid())
                : application.strip();
        String name = clean(who + "@" + host());
        return name.length() > MAX_LENGTH ? name.substring(0, MAX_LENGTH) : name;
    }

    /**
     * Checks a configured name.
     *
     * @param name the name
     * @return the name
     * @throws IllegalArgumentException naming what is wrong and what is allowed: a name is 1 to {@value #MAX_LENGTH}
     *     printable characters, without {@code +} or {@code *} (which Redis values use as marks)
     */
    public static String check(@Nullable String name) {
        if (name == null
                || name.isBlank()
                || name.length() > MAX_LENGTH
                || !clean(name).equals(name)) {
            throw new IllegalArgumentException("instance name must be " + ALLOWED + ", but was "
                    + (name == null
                            ? "null"
                            : "\"" + PrintableText.of(name) + "\" (" + name.length() + " characters)"));
        }
        return name;
    }

    private static String clean(String name) {
        StringBuilder cleaned = new StringBuilder(name.length());
        name.codePoints()
                .map(c -> c == '+' || c == '*' || Character.isISOControl(c) || !Character.isDefined(c) ? '_' : c)
                .forEach(cleaned::appendCodePoint);
        return cleaned.toString();
    }

    private static String host() {
        return Host.NAME;
    }

    /** The host's name, found once: the JVM's lookup of the local host can take seconds where DNS is slow. */
    private static final class Host {

        static final String NAME = find();

        private static String find() {
            for (String variable : new String[] {"HOSTNAME", "COMPUTERNAME"}) {
                String value = System.getenv(variable);
                if (value != null && !value.isBlank()) {
                    return value.strip();
                }
            }
            try {
                return InetAddress.getLocalHost().getHostName();
            } catch (UnknownHostException e) {
                return "unknown-host";
            }
        }
    }
}
