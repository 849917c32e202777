package dev.weft.plan;

/**
 * What a message asks an assistant to do, as far as the safety of its plan needs to know (issue 37's
 * invariants): whether it only asks to read, confirm or be told, and whether its words ask for the
 * change a step would make. An assistant's language layer implements it, in every language it reads;
 * {@link ChangeGuard} holds a plan to it. Implementations are thread-safe.
 */
public interface RequestActs {
    /**
     * Whether {@code message} only asks to read, confirm or be told ("what reminders do I have", "is my
     * morning alarm on?", "confirm my alarm settings"): no step planned for it may change anything.
     */
    boolean asksOnlyToRead(String message, String language);

    /**
     * The topic of a request the assistant does not do, said as a command ("pay the electricity bill
     * with my Visa": payments; "schedule an uber": transport): no step planned for it may change
     * anything. Empty for a request the assistant may act on.
     */
    default java.util.Optional<String> outsideScope(String message, String language) {
        return java.util.Optional.empty();
    }

    /** Whether the words of {@code message} ask for the change {@code step} would make. */
    boolean asksFor(String message, String language, PlanStep step);
}
