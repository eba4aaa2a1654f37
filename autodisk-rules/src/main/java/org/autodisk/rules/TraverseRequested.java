package org.autodisk.rules;

/**
 * A client asked to traverse the keys of one range from {@code key} (inclusive) up to {@code toKey}.
 *
 * @param requestId the node's handle for the request
 * @param key the lower bound as text
 * @param toKey the upper bound as text (exclusive), or empty for the end of the range
 * @param ownerIsLocal whether this node owns the range
 * @param rangeId the range traversed
 * @param hops how many nodes forwarded the request already
 */
public record TraverseRequested(String requestId, String key, String toKey, boolean ownerIsLocal, int rangeId,
        int hops) implements RequestEvent {
}
