package io.distlock.tck;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test when a secret it used shows up in what was written to {@code System.out} or {@code System.err} while it
 * ran, which is where test logging goes (a console appender, Spring Boot's start-up failure report): passwords,
 * credentials and the values of a method's arguments must never reach a log line or an exception's message. Output of
 * every thread counts, the test's own assertion messages excepted. A secret counts also in its URL-encoded forms.
 *
 * <pre>
 * &#64;RegisterExtension
 * static final SecretsStayOutOfOutput SECRETS = new SecretsStayOutOfOutput("pa/ss {word");
 * </pre>
 *
 * The output still reaches the console as before; the extension only reads along.
 */
public final class SecretsStayOutOfOutput implements BeforeEachCallback, AfterEachCallback {

    private static final ExtensionContext.Namespace NAMESPACE =
            ExtensionContext.Namespace.create(SecretsStayOutOfOutput.class);

    private final List<String> secrets;

    /**
     * Watches for the given secrets.
     *
     * @param secrets the values that must not appear, each at least 4 characters, so that it cannot match by chance
     * @throws IllegalArgumentException if there is none, or one is shorter than 4 characters
     */
    public SecretsStayOutOfOutput(String... secrets) {
        if (secrets.length == 0) {
            throw new IllegalArgumentException("name at least one secret to watch for");
        }
        Set<String> forms = new LinkedHashSet<>();
        for (String secret : secrets) {
            if (secret == null || secret.length() < 4) {
                throw new IllegalArgumentException(
                        "each secret must have at least 4 characters, or it would match ordinary output by chance");
            }
            forms.add(secret);
            String encoded = URLEncoder.encode(secret, StandardCharsets.UTF_8);
            forms.add(encoded);
            forms.add(encoded.replace("+", "%20"));
        }
        this.secrets = List.copyOf(forms);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        Capture capture = new Capture(System.out, System.err);
        context.getStore(NAMESPACE).put(Capture.class, capture);
        System.setOut(capture.tee(capture.out));
        System.setErr(capture.tee(capture.err));
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Capture capture = context.getStore(NAMESPACE).remove(Capture.class, Capture.class);
        System.setOut(capture.out);
        System.setErr(capture.err);
        String output = capture.text();
        for (int i = 0; i < secrets.size(); i++) {
            int at = output.indexOf(secrets.get(i));
            if (at >= 0) {
                throw new AssertionError("a secret (" + secrets.get(i).length() + " characters) appeared in the"
                        + " test's output, in the line: "
                        + lineAround(output, at).replace(secrets.get(i), "<secret>"));
            }
        }
    }

    private static String lineAround(String output, int at) {
        int start = output.lastIndexOf('\n', at) + 1;
        int end = output.indexOf('\n', at);
        return output.substring(start, end < 0 ? output.length() : end).strip();
    }

    /** The streams before the test, and what was written to either during it. */
    private static final class Capture {

        final PrintStream out;
        final PrintStream err;
        private final ByteArrayOutputStream written = new ByteArrayOutputStream();

        Capture(PrintStream out, PrintStream err) {
            this.out = out;
            this.err = err;
        }

        PrintStream tee(PrintStream original) {
            return new PrintStream(
                    new OutputStream() {
                        @Override
                        public void write(int b) {
                            original.write(b);
                            synchronized (written) {
                                written.write(b);
                            }
                        }

                        @Override
                        public void write(byte[] bytes, int offset, int length) {
                            original.write(bytes, offset, length);
                            synchronized (written) {
                                written.write(bytes, offset, length);
                            }
                        }

                        @Override
                        public void flush() {
                            original.flush();
                        }
                    },
                    true,
                    StandardCharsets.UTF_8);
        }

        String text() {
            synchronized (written) {
                return written.toString(StandardCharsets.UTF_8);
            }
        }
    }
}
