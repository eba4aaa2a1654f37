package org.autodisk.node.ledger;

import org.autodisk.core.protocol.Status;

/** A ledger operation a log node (or the metadata) refused or could not do; {@link #kind} says which. */
public final class LedgerException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Why. */
    public enum Kind {
        /** The ledger is fenced: a new writer recovers it, and its old writer may add nothing more. */
        FENCED,
        /** The entries would leave a hole in the ledger on that log node. */
        GAP,
        /** The log node could not make the entries or the fence durable (a disk error), or did not answer. */
        UNAVAILABLE,
        /** The metadata refused a ledger change (the ledger is closed or in recovery by another node). */
        REFUSED,
        /** The entry was sent but its acknowledgement never came: recovery settles whether it is in the ledger. */
        OUTCOME_UNKNOWN
    }

    private final Kind kind;
    private final boolean notSent;

    /**
     * Creates the exception.
     *
     * @param kind    why
     * @param message what happened, naming the node and the ledger
     */
    public LedgerException(Kind kind, String message) {
        this(kind, message, false);
    }

    private LedgerException(Kind kind, String message, boolean notSent) {
        super(message);
        this.kind = kind;
        this.notSent = notSent;
    }

    /**
     * Creates the UNAVAILABLE failure of a request that never left this node (its connection was never made, or
     * closed before the request was written to it): the log node did not get it.
     *
     * @param message what happened, naming the node
     * @return the exception
     */
    public static LedgerException notSent(String message) {
        return new LedgerException(Kind.UNAVAILABLE, message, true);
    }

    /**
     * Tells whether the request is known never to have reached the log node.
     *
     * @return true for {@link #notSent(String)}
     */
    public boolean notSent() {
        return notSent;
    }

    /**
     * Returns why.
     *
     * @return the kind
     */
    public Kind kind() {
        return kind;
    }

    /**
     * Returns the status a log node answers this refusal with on the wire.
     *
     * @return FENCED, REFUSED (a gap), or NODE_UNAVAILABLE
     */
    public Status status() {
        return switch (kind) {
            case FENCED -> Status.FENCED;
            case GAP, REFUSED -> Status.REFUSED;
            case OUTCOME_UNKNOWN -> Status.OUTCOME_UNKNOWN;
            case UNAVAILABLE -> Status.NODE_UNAVAILABLE;
        };
    }

    /**
     * Rebuilds a log node's refusal from its answer.
     *
     * @param status  the status it answered
     * @param message its message
     * @return the exception: FENCED, GAP (for REFUSED) or UNAVAILABLE (anything else)
     */
    public static LedgerException fromStatus(Status status, String message) {
        Kind kind = switch (status) {
            case FENCED -> Kind.FENCED;
            case REFUSED -> Kind.GAP;
            default -> Kind.UNAVAILABLE;
        };
        return new LedgerException(kind, message);
    }

    /**
     * Unwraps the failure of a future of the ledger protocol.
     *
     * @param err what the future failed with
     * @return the underlying exception, as a runtime exception
     */
    public static RuntimeException unwrap(Throwable err) {
        return LedgerPeersSupport.cause(err);
    }
}
