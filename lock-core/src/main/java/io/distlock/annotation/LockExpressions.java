package io.distlock.annotation;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;
import org.jspecify.annotations.Nullable;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelCompilerMode;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.SpelParserConfiguration;
import org.springframework.expression.spel.ast.BeanReference;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;

/**
 * Parses the SpEL expressions of {@code @DistributedLock} attributes and checks, before any call, that every
 * parameter ({@code #sku}, {@code #p0}) and bean ({@code @names}) they refer to exists. A problem is a {@link
 * DistributedLockDefinitionException} naming the attribute and its expression.
 */
final class LockExpressions {

    private static final Pattern POSITIONAL = Pattern.compile("[pa](\\d+)");
    private static final Set<String> BUILT_IN_VARIABLES = Set.of("root", "this");

    private final @Nullable BeanFactory beanFactory;
    private final SpelExpressionParser parser;
    private final ParameterNameDiscoverer parameterNames = new DefaultParameterNameDiscoverer();

    /** Creates the parser; {@code beanFactory} resolves {@code @beanName} references, and null allows none. */
    LockExpressions(@Nullable BeanFactory beanFactory) {
        this.beanFactory = beanFactory;
        this.parser = new SpelExpressionParser(new SpelParserConfiguration(
                SpelCompilerMode.MIXED, beanFactory == null ? null : LockExpressions.class.getClassLoader()));
    }

    /** How the evaluation contexts of calls find parameters by name. */
    ParameterNameDiscoverer parameterNames() {
        return parameterNames;
    }

    /**
     * Parses one attribute's expression and checks its references.
     *
     * @param attribute the attribute as messages name it, such as {@code key} or {@code keys[1]}
     * @throws DistributedLockDefinitionException if the text is not valid SpEL, or refers to a parameter or bean that
     *     does not exist
     */
    SpelExpression parse(Method method, String attribute, String text) {
        SpelExpression expression;
        try {
            expression = (SpelExpression) parser.parseExpression(text);
        } catch (ParseException e) {
            throw new DistributedLockDefinitionException(
                    method, attribute + " \"" + text + "\" is not a valid SpEL expression: " + e.getMessage());
        }
        Set<String> variables = new LinkedHashSet<>();
        Set<String> beans = new LinkedHashSet<>();
        collectReferences(expression.getAST(), variables, beans);
        checkVariables(method, attribute, text, variables);
        checkBeans(method, attribute, text, beans);
        return expression;
    }

    /** The index of the parameter a variable names, by name or position; -1 if it names none. */
    int parameterIndex(Method method, String variable) {
        var positional = POSITIONAL.matcher(variable);
        if (positional.matches()) {
            return Integer.parseInt(positional.group(1));
        }
        String[] names = parameterNames.getParameterNames(method);
        return names == null ? -1 : Arrays.asList(names).indexOf(variable);
    }

    private void checkVariables(Method method, String attribute, String text, Set<String> variables) {
        String[] names = parameterNames.getParameterNames(method);
        List<String> known = names == null ? List.of() : Arrays.asList(names);
        for (String variable : variables) {
            if (BUILT_IN_VARIABLES.contains(variable) || known.contains(variable)) {
                continue;
            }
            var positional = POSITIONAL.matcher(variable);
            if (positional.matches()) {
                if (Integer.parseInt(positional.group(1)) >= method.getParameterCount()) {
                    throw new DistributedLockDefinitionException(
                            method,
                            attribute + " \"" + text + "\" refers to #" + variable + " but the method has "
                                    + method.getParameterCount() + " parameter(s)");
                }
                continue;
            }
            if (names == null && method.getParameterCount() > 0) {
                throw new DistributedLockDefinitionException(
                        method,
                        attribute + " \"" + text + "\" refers to #" + variable + ", but the parameter names of "
                                + method.getDeclaringClass().getSimpleName() + " were not compiled into its class "
                                + "file. Compile with -parameters (Maven: <parameters>true</parameters> in "
                                + "maven-compiler-plugin; Gradle: options.compilerArgs << '-parameters'), or refer "
                                + "to parameters by position: #p0, #p1, ...");
            }
            throw new DistributedLockDefinitionException(
                    method,
                    attribute + " \"" + text + "\" refers to #" + variable
                            + ", which is not a parameter; parameters are "
                            + known + " (or #p0..#p" + Math.max(0, method.getParameterCount() - 1)
                            + "), plus #root");
        }
    }

    private void checkBeans(Method method, String attribute, String text, Set<String> beans) {
        for (String bean : beans) {
            if (beanFactory == null || !beanFactory.containsBean(bean)) {
                throw new DistributedLockDefinitionException(
                        method,
                        attribute + " \"" + text + "\" refers to bean @" + bean + ", but there is no such bean");
            }
        }
    }

    private static void collectReferences(SpelNode node, Set<String> variables, Set<String> beans) {
        if (node instanceof VariableReference) {
            variables.add(node.toStringAST().substring(1));
        } else if (node instanceof BeanReference) {
            beans.add(node.toStringAST().substring(1));
        }
        for (int i = 0; i < node.getChildCount(); i++) {
            collectReferences(node.getChild(i), variables, beans);
        }
    }
}
