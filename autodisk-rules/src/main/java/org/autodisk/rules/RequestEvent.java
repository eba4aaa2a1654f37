package org.autodisk.rules;

/** A stream operation a client asked a node to perform; the engine answers it with a {@link Decision}. */
public sealed interface RequestEvent
        permits InsertRequested, SearchRequested, DeleteRequested, TraverseRequested {

    /**
     * Returns the node's handle for the request.
     *
     * @return the request id
     */
    String requestId();

    /**
     * Returns the key the request addresses (the lower bound for a traverse).
     *
     * @return the key as text
     */
    String key();

    /**
     * Returns whether this node owns the key's range.
     *
     * @return true when the owner is the local node
     */
    boolean ownerIsLocal();

    /**
     * Returns the range the key falls in.
     *
     * @return the range id
     */
    int rangeId();

    /**
     * Returns how many nodes forwarded the request before it reached this one.
     *
     * @return the hop count
     */
    int hops();
}
