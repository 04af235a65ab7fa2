package io.distlock.autoconfigure.readme;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.tools.Diagnostic;
import javax.tools.DiagnosticCollector;
import javax.tools.JavaCompiler;
import javax.tools.JavaFileObject;
import javax.tools.SimpleJavaFileObject;
import javax.tools.StandardJavaFileManager;
import javax.tools.StandardLocation;
import javax.tools.ToolProvider;

/**
 * The Java examples of a Markdown file, compiled as they stand, so that an example that no longer compiles fails a
 * test naming its line in the file and the compiler's message.
 *
 * <p>Every {@code ```java} block is one example. It is compiled as one source file, in a package of its own, after
 * {@link #PRELUDE}: imports of distlock's packages and of the Spring and JDK packages the examples use, and a static
 * import of {@link ReadmeFixtures}, which declares what the examples name without declaring it ({@code lock}, {@code
 * lease}, {@code sku}, {@code readStock(sku)}...). An example is wrapped by these rules, and nothing else:
 *
 * <ol>
 *   <li>An example that declares a top-level type ({@code class}, {@code interface}, {@code record}, {@code enum})
 *       is a source file already.
 *   <li>Otherwise its paragraphs (separated by blank lines) are either members, if they start with an annotation or
 *       an access modifier, which go into the body of a class, or statements, which go, in order, into the body of
 *       a method of that class that may throw anything.
 *   <li>{@code ...} stands for what the example leaves out: in a declaration, {@code { ... }} is a method body and
 *       becomes one that throws; anywhere else, {@code ...} becomes a comment.
 * </ol>
 *
 * <p>Lines keep their order and their text but for rule 3, so each line of the compiled source maps back to one line
 * of the file, which every error names.
 */
final class ReadmeSnippets {

    /** Imports every example gets. */
    static final List<String> PRELUDE = List.of(
            "import io.distlock.*;",
            "import io.distlock.autoconfigure.metrics.*;",
            "import io.distlock.jdbc.*;",
            "import io.distlock.monitor.*;",
            "import io.distlock.reactor.*;",
            "import io.distlock.redis.*;",
            "import io.distlock.zookeeper.*;",
            "import java.time.*;",
            "import java.util.*;",
            "import java.util.concurrent.*;",
            "import org.springframework.context.annotation.*;",
            "import org.springframework.data.redis.connection.lettuce.*;",
            "import org.springframework.data.redis.core.*;",
            "import org.springframework.scheduling.annotation.*;",
            "import org.springframework.stereotype.*;",
            "import reactor.core.publisher.*;",
            "import " + ReadmeFixtures.class.getName() + ".*;",
            "import static " + ReadmeFixtures.class.getName() + ".*;");

    private static final Pattern TOP_LEVEL_TYPE =
            Pattern.compile("^(?:public\\s+|final\\s+|abstract\\s+)*(?:class|interface|record|enum)\\s+(\\w+)");
    private static final Pattern MEMBER_START =
            Pattern.compile("^(?:@\\w|public\\s|protected\\s|private\\s|static\\s|final\\s)");
    private static final Pattern STATEMENT_START =
            Pattern.compile("^(?:try|if|else|for|while|do|switch|synchronized|catch|finally)\\b");
    private static final String ELIDED_BODY = "{ ... }";
    private static final String THROWING_BODY = "{ throw new UnsupportedOperationException(); }";

    /**
     * One example.
     *
     * @param firstLine the line of the file where its code starts (after the fence), from 1
     * @param lines its lines
     */
    record Snippet(int firstLine, List<String> lines) {}

    /**
     * An error of the compiler in an example.
     *
     * @param line the line of the file, from 1, or 0 if the error is in the wrapping
     * @param message the compiler's message
     * @param code the file's line, or the wrapping's
     */
    record Error(int line, String message, String code) {

        @Override
        public String toString() {
            return "line " + line + ": " + message + "\n        " + code.strip();
        }
    }

    private ReadmeSnippets() {}

    /** The Markdown file at the top of the repository, found by walking up from the working directory. */
    static Path readme() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path readme = dir.resolve("README.md");
            if (Files.isRegularFile(readme) && Files.isRegularFile(dir.resolve("mvnw"))) {
                return readme;
            }
        }
        throw new IllegalStateException(
                "no README.md next to mvnw above " + Path.of("").toAbsolutePath());
    }

    /** Every {@code ```java} block of the Markdown text. */
    static List<Snippet> javaBlocks(List<String> markdown) {
        List<Snippet> snippets = new ArrayList<>();
        for (int i = 0; i < markdown.size(); i++) {
            if (!markdown.get(i).strip().equals("```java")) {
                continue;
            }
            int first = i + 1;
            int end = first;
            while (end < markdown.size() && !markdown.get(end).strip().equals("```")) {
                end++;
            }
            snippets.add(new Snippet(first + 1, List.copyOf(markdown.subList(first, end))));
            i = end;
        }
        return snippets;
    }

    /**
     * Compiles every example, each in a source file of its own, against the class path of this test.
     *
     * @return the errors, naming the lines of the Markdown file; empty if every example compiled
     */
    static List<Error> compile(List<Snippet> snippets, Path classesDir) throws IOException {
        JavaCompiler compiler = ToolProvider.getSystemJavaCompiler();
        if (compiler == null) {
            throw new IllegalStateException("the README's examples are compiled by the JDK's compiler; run on a JDK");
        }
        List<Source> sources = snippets.stream().map(ReadmeSnippets::wrap).toList();
        DiagnosticCollector<JavaFileObject> diagnostics = new DiagnosticCollector<>();
        try (StandardJavaFileManager files = compiler.getStandardFileManager(diagnostics, Locale.ROOT, null)) {
            files.setLocation(StandardLocation.CLASS_OUTPUT, List.of(classesDir.toFile()));
            List<String> options = List.of("-proc:none", "-classpath", testClassPath());
            Boolean compiled = compiler.getTask(null, files, diagnostics, options, null, sources)
                    .call();
            List<Error> errors = new ArrayList<>();
            for (Diagnostic<? extends JavaFileObject> diagnostic : diagnostics.getDiagnostics()) {
                if (diagnostic.getKind() == Diagnostic.Kind.ERROR) {
                    errors.add(error(diagnostic));
                }
            }
            if (!compiled && errors.isEmpty()) {
                throw new IllegalStateException(
                        "the compiler failed without an error: " + diagnostics.getDiagnostics());
            }
            return errors;
        }
    }

    /** Wraps one example by the rules of the class comment. */
    static Source wrap(Snippet snippet) {
        String pkg = "readme.line" + snippet.firstLine();
        List<Line> code = new ArrayList<>();
        code.add(new Line(0, "package " + pkg + ";"));
        PRELUDE.forEach(imported -> code.add(new Line(0, imported)));
        String typeName = declaredType(snippet);
        if (typeName != null) {
            for (int i = 0; i < snippet.lines().size(); i++) {
                code.add(new Line(snippet.firstLine() + i, elide(snippet.lines().get(i), true)));
            }
            return new Source(pkg, typeName, code);
        }
        List<Line> members = new ArrayList<>();
        List<Line> statements = new ArrayList<>();
        boolean member = false;
        boolean paragraphStart = true;
        for (int i = 0; i < snippet.lines().size(); i++) {
            String text = snippet.lines().get(i);
            if (text.isBlank()) {
                paragraphStart = true;
                continue;
            }
            if (paragraphStart) {
                member = MEMBER_START.matcher(text.strip()).find();
                paragraphStart = false;
            }
            (member ? members : statements).add(new Line(snippet.firstLine() + i, elide(text, member)));
        }
        String className = "Example";
        code.add(new Line(0, "class " + className + " {"));
        code.add(new Line(0, "void example() throws Throwable {"));
        code.addAll(statements);
        code.add(new Line(0, "}"));
        code.addAll(members);
        code.add(new Line(0, "}"));
        return new Source(pkg, className, code);
    }

    /** The name of the top-level type the example declares, or null if it declares none. */
    private static String declaredType(Snippet snippet) {
        for (String line : snippet.lines()) {
            // Top-level declarations start at the left margin; annotations before them are on lines of their own.
            if (!line.isEmpty() && !Character.isWhitespace(line.charAt(0))) {
                Matcher type = TOP_LEVEL_TYPE.matcher(line);
                if (type.find()) {
                    return type.group(1);
                }
            }
        }
        return null;
    }

    /** Rule 3: what the example leaves out. */
    private static String elide(String line, boolean declarations) {
        String code = line;
        if (declarations && !STATEMENT_START.matcher(line.strip()).find()) {
            code = code.replace(ELIDED_BODY, THROWING_BODY);
        }
        return code.replace("...", "/* ... */");
    }

    private static Error error(Diagnostic<? extends JavaFileObject> diagnostic) {
        String message = diagnostic.getMessage(Locale.ROOT);
        if (!(diagnostic.getSource() instanceof Source source) || diagnostic.getLineNumber() < 1) {
            return new Error(0, message, String.valueOf(diagnostic.getSource()));
        }
        Line line = source.lines().get((int) diagnostic.getLineNumber() - 1);
        return new Error(line.readmeLine(), message, line.text());
    }

    /**
     * The test's class path: Surefire names it in {@code surefire.test.class.path} when {@code java.class.path} is
     * only its booter jar.
     */
    private static String testClassPath() {
        String surefire = System.getProperty("surefire.test.class.path");
        return surefire != null && !surefire.isBlank() ? surefire : System.getProperty("java.class.path");
    }

    /** A line of generated source: the file's line it comes from (from 1), or 0 for the wrapping. */
    record Line(int readmeLine, String text) {}

    /** The source file of one example. */
    static final class Source extends SimpleJavaFileObject {

        private final List<Line> lines;

        Source(String pkg, String typeName, List<Line> lines) {
            super(
                    URI.create("string:///" + pkg.replace('.', '/') + "/" + typeName + Kind.SOURCE.extension),
                    Kind.SOURCE);
            this.lines = List.copyOf(lines);
        }

        List<Line> lines() {
            return lines;
        }

        @Override
        public CharSequence getCharContent(boolean ignoreEncodingErrors) {
            StringBuilder text = new StringBuilder();
            lines.forEach(line -> text.append(line.text()).append('\n'));
            return text;
        }
    }
}
