package dev.weft.core;

/** A node was about to run more often than its visit limit allows; the run fails rather than loop. */
public final class VisitLimitException extends WeftException {
    private static final long serialVersionUID = 1L;

    public VisitLimitException(String nodeId, int limit) {
        super(
                ErrorCode.E_VISIT_LIMIT,
                "node '" + nodeId + "' reached its visit limit of " + limit
                        + " (raise config.maxVisits if the loop is meant to go on)");
    }
}
