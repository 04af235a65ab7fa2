package io.distlock.annotation;

import io.distlock.DistributedLock;
import io.distlock.Kind;
import io.distlock.Lock;
import io.distlock.internal.text.PrintableText;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import org.jspecify.annotations.Nullable;
import org.springframework.expression.EvaluationContext;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.Expression;
import org.springframework.util.ObjectUtils;

/**
 * The {@code tree} and {@code path} expressions of a {@code @DistributedLock} method that is locked on a path: checked
 * once when the bean is created, evaluated for each call into the tree's name and the path in it.
 */
final class LockedPath {

    private final Method method;
    private final String treeText;
    private final String pathText;
    private final Expression tree;
    private final Expression path;
    private final String parameters;

    private LockedPath(
            Method method, String treeText, String pathText, Expression tree, Expression path, String parameters) {
        this.method = method;
        this.treeText = treeText;
        this.pathText = pathText;
        this.tree = tree;
        this.path = path;
        this.parameters = parameters;
    }

    /**
     * The path of an annotated method, if it sets {@code tree} and {@code path}.
     *
     * @return the checked expressions, or null if the method is locked by {@code key} or {@code keys}
     * @throws DistributedLockDefinitionException if only one of the two is set, they are combined with an attribute
     *     the path lock has no use for, or an expression is blank, not valid SpEL or refers to what does not exist
     */
    static @Nullable LockedPath of(Method method, DistributedLock annotation, LockExpressions expressions) {
        String treeText = annotation.tree();
        String pathText = annotation.path();
        if (treeText.isEmpty() && pathText.isEmpty()) {
            return null;
        }
        if (pathText.isEmpty()) {
            throw new DistributedLockDefinitionException(
                    method,
                    "tree \"" + treeText + "\" is set but path is not; set both: tree names the tree and path the"
                            + " path in it, such as path = \"#folder\" (path = \"''\" locks the whole tree)");
        }
        if (treeText.isEmpty()) {
            throw new DistributedLockDefinitionException(
                    method,
                    "path \"" + pathText + "\" is set but tree is not; set both: tree names the tree, such as tree ="
                            + " \"'project:' + #projectId\", and path the path in it");
        }
        if (!annotation.key().isEmpty() || annotation.keys().length > 0) {
            throw new DistributedLockDefinitionException(
                    method,
                    "set tree and path, or key or keys, not both, but tree is \"" + treeText + "\", path is \""
                            + pathText + "\", key is \"" + annotation.key() + "\" and keys are "
                            + Arrays.toString(annotation.keys()) + "; use tree and path to lock a path with its"
                            + " ancestors and descendants, key or keys to lock plain keys");
        }
        if (annotation.fair()) {
            throw new DistributedLockDefinitionException(
                    method, "fair cannot be combined with tree and path: the path lock does not queue; remove fair");
        }
        if (annotation.read()) {
            throw new DistributedLockDefinitionException(
                    method, "read cannot be combined with tree and path: the path lock has no read side; remove read");
        }
        return new LockedPath(
                method,
                treeText,
                pathText,
                parse(method, "tree", treeText, "\"'project:' + #projectId\"", expressions),
                parse(method, "path", pathText, "\"#folder\" (or \"''\" for the whole tree)", expressions),
                CallParameters.describe(method, expressions.parameterNames()));
    }

    private static Expression parse(
            Method method, String attribute, String text, String example, LockExpressions expressions) {
        if (text.isBlank()) {
            throw new DistributedLockDefinitionException(
                    method, attribute + " must be a SpEL expression such as " + example + ", but was blank");
        }
        return expressions.parse(method, attribute, text);
    }

    /**
     * Evaluates the tree's name and the path for one call.
     *
     * @throws IllegalArgumentException naming the method, expression and parameters if the tree's name is null or
     *     blank, or the path is null, neither a String nor a collection or array, or has a segment that is null,
     *     blank or contains {@code /}
     */
    Call evaluate(EvaluationContext context) {
        Object treeValue = evaluate(tree, "tree", context);
        String treeName = treeValue.toString();
        if (treeName.isBlank()) {
            throw invalid("tree", "evaluated to a blank tree name", null);
        }
        return new Call(treeName, path(evaluate(path, "path", context)));
    }

    private Object evaluate(Expression expression, String attribute, EvaluationContext context) {
        Object value;
        try {
            value = expression.getValue(context);
        } catch (EvaluationException e) {
            throw invalid(attribute, "could not be evaluated (" + e.getMessage() + ")", e);
        }
        if (value == null) {
            throw invalid(
                    attribute,
                    "evaluated to null" + (attribute.equals("path") ? "; use \"\" for the whole tree" : ""),
                    null);
        }
        return value;
    }

    /** The path a value gives: a String as it is, for the path lock to check; segments joined with {@code /}. */
    private String path(Object value) {
        if (value instanceof CharSequence text) {
            return text.toString();
        }
        Collection<?> segments;
        if (value instanceof Collection<?> collection) {
            segments = collection;
        } else if (value.getClass().isArray()) {
            segments = Arrays.asList(ObjectUtils.toObjectArray(value));
        } else {
            throw invalid(
                    "path",
                    "evaluated to a " + value.getClass().getName() + ", but a path is a String such as \"A/C\" or a"
                            + " collection or array of segments such as [\"A\", \"C\"]",
                    null);
        }
        List<String> texts = new ArrayList<>(segments.size());
        for (Object segment : segments) {
            String text = segment == null ? null : segment.toString();
            if (text == null || text.isBlank() || text.indexOf('/') >= 0) {
                throw invalid(
                        "path",
                        "has the segment " + (text == null ? "null" : "\"" + PrintableText.of(text) + "\"")
                                + " at index "
                                + texts.size() + "; each segment must be text that is not blank and has no '/' (give"
                                + " \"A/C\" as the segments \"A\" and \"C\")",
                        null);
            }
            texts.add(text);
        }
        return String.join("/", texts);
    }

    private IllegalArgumentException invalid(String attribute, String problem, @Nullable Throwable cause) {
        String text = attribute.equals("tree") ? treeText : pathText;
        return new IllegalArgumentException(
                "@DistributedLock " + attribute + " of " + DistributedLockDefinitionException.describe(method) + " "
                        + problem + ": expression \"" + text + "\" over the parameters " + parameters
                        + "; the method did not run",
                cause);
    }

    /** One call's tree and path. */
    final class Call {

        private final String tree;
        private final String path;

        private Call(String tree, String path) {
            this.tree = tree;
            this.path = path;
        }

        /** The path to take, as the path lock accepts it: {@code ""} is the whole tree. */
        String path() {
            return path;
        }

        /**
         * The path lock of this call's tree.
         *
         * @throws IllegalArgumentException naming the method, expression and parameters if the lock refuses the name
         */
        Lock lockIn(Lock lock) {
            try {
                return Kind.PATH.of(lock).tree(tree);
            } catch (IllegalArgumentException e) {
                throw invalid(
                        "tree",
                        "gave the tree name \"" + PrintableText.of(tree) + "\", which was refused (" + e.getMessage()
                                + ")",
                        e);
            }
        }

        /**
         * The error for a path the path lock refused, such as {@code "a//b"}: its message, with the method, expression
         * and parameters.
         */
        IllegalArgumentException refused(IllegalArgumentException refusal) {
            return invalid(
                    "path",
                    "gave the path \"" + PrintableText.of(path) + "\", which was refused (" + refusal.getMessage()
                            + ")",
                    refusal);
        }
    }
}
