package org.autodisk.rules;

/**
 * A client asked to delete a key.
 *
 * @param requestId the node's handle for the request
 * @param key the key as text
 * @param ownerIsLocal whether this node owns the key's range
 * @param rangeId the range the key falls in
 * @param hops how many nodes forwarded the request already
 */
public record DeleteRequested(String requestId, String key, boolean ownerIsLocal, int rangeId, int hops)
        implements RequestEvent {
}
