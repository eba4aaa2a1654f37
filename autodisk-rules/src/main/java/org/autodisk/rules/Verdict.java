package org.autodisk.rules;

/**
 * The global {@code verdict} through which rules decide the current request. When several rules speak, a
 * refusal wins over forwarding, forwarding wins over local handling, and the largest log multiplicity wins.
 * One instance belongs to one session and is used by one thread at a time.
 */
public final class Verdict {

    private Decision.Kind kind = Decision.Kind.NONE;
    private int multiplicity;
    private String reason = "";

    Verdict() {
    }

    /** Forward the request to the owner of its key. */
    public void forward() {
        if (kind != Decision.Kind.REFUSE) {
            kind = Decision.Kind.FORWARD;
        }
    }

    /**
     * Handle the request here, its log record held by at least {@code logMultiplicity} log nodes.
     *
     * @param logMultiplicity the log nodes that must acknowledge a write
     */
    public void handleLocally(int logMultiplicity) {
        multiplicity = Math.max(multiplicity, logMultiplicity);
        if (kind == Decision.Kind.NONE) {
            kind = Decision.Kind.HANDLE_LOCALLY;
        }
    }

    /**
     * Refuse the request; the first reason given is kept.
     *
     * @param why the reason, for the client
     */
    public void refuse(String why) {
        if (kind != Decision.Kind.REFUSE) {
            kind = Decision.Kind.REFUSE;
            reason = why;
        }
    }

    void reset() {
        kind = Decision.Kind.NONE;
        multiplicity = 0;
        reason = "";
    }

    Decision toDecision() {
        return switch (kind) {
            case NONE -> Decision.NONE;
            case FORWARD -> Decision.FORWARD;
            case REFUSE -> Decision.refuse(reason);
            case HANDLE_LOCALLY -> Decision.handleLocally(multiplicity);
        };
    }
}
