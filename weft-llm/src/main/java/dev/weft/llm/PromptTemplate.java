package dev.weft.llm;

import com.samskivert.mustache.Template;
import dev.weft.core.ErrorCode;
import dev.weft.core.NodeContext;
import dev.weft.core.WeftException;
import dev.weft.llm.internal.Templates;
import java.util.Map;
import java.util.Objects;

/**
 * A prompt as Mustache templates: a system template (the fixed part, sent first) and a user
 * template (the per-request part, sent last). Templates see {@code input} (the run input), {@code
 * vars}, {@code nodes} (earlier outputs by name) and {@code previous} (the node's own input); objects
 * render as JSON, a missing variable is an error. Compiled once; immutable and thread-safe.
 */
public final class PromptTemplate {
    private final String systemText;
    private final String userText;
    private final Template system;
    private final Template user;

    private PromptTemplate(String systemText, String userText) {
        this.systemText = systemText;
        this.userText = userText;
        this.system = compile(systemText, "system");
        this.user = compile(userText, "user");
    }

    /**
     * Compiles both templates.
     *
     * @throws IllegalArgumentException naming the template and line when one does not compile, or
     *     when both are empty
     */
    public static PromptTemplate of(String system, String user) {
        Objects.requireNonNull(system, "system");
        Objects.requireNonNull(user, "user");
        if (system.isBlank() && user.isBlank()) {
            throw new IllegalArgumentException("a prompt needs a system or a user template; both are empty");
        }
        return new PromptTemplate(system, user);
    }

    /** A prompt with only a user template. */
    public static PromptTemplate user(String user) {
        return of("", user);
    }

    public String systemTemplate() {
        return systemText;
    }

    public String userTemplate() {
        return userText;
    }

    /**
     * Renders both templates over {@code context}.
     *
     * @throws IllegalArgumentException naming the template and variable when a variable is missing
     */
    public Prompt render(Map<String, Object> context) {
        return new Prompt(render(system, "system", context), render(user, "user", context));
    }

    /**
     * Renders both templates over the step's variable context.
     *
     * @throws WeftException {@code E_NODE_FAILED} naming the node, template and variable when a
     *     variable is missing
     */
    public Prompt render(NodeContext context) {
        try {
            return render(Templates.context(context));
        } catch (IllegalArgumentException e) {
            throw new WeftException(ErrorCode.E_NODE_FAILED, "node '" + context.nodeId() + "': " + e.getMessage(), e);
        }
    }

    private static String render(Template template, String which, Map<String, Object> context) {
        try {
            return Templates.render(template, context);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("prompt." + which + ": " + e.getMessage(), e);
        }
    }

    private static Template compile(String text, String which) {
        try {
            return Templates.compile(text);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("prompt." + which + " does not compile: " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "PromptTemplate[system=" + systemText + ", user=" + userText + "]";
    }
}
