package dev.weft.core;

import java.util.List;

/** A graph that does not compile, or a definition that cannot become one. Lists every problem found. */
public final class GraphInvalidException extends WeftException {
    private static final long serialVersionUID = 1L;

    private final List<String> problems;

    public GraphInvalidException(List<String> problems) {
        super(ErrorCode.E_GRAPH_INVALID, String.join("; ", problems));
        this.problems = List.copyOf(problems);
    }

    public GraphInvalidException(String problem) {
        this(List.of(problem));
    }

    /** Each problem, naming the node or field and the rule it breaks. */
    public List<String> problems() {
        return problems;
    }
}
