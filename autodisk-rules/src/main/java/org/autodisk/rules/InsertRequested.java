package org.autodisk.rules;

/**
 * A client asked to insert (or replace) a key.
 *
 * @param requestId the node's handle for the request
 * @param key the key as text
 * @param valueSize the value's size in bytes
 * @param ownerIsLocal whether this node owns the key's range
 * @param rangeId the range the key falls in
 * @param hops how many nodes forwarded the request already
 * @param replace whether the key exists already, so the insert would replace its value
 */
public record InsertRequested(String requestId, String key, int valueSize, boolean ownerIsLocal, int rangeId,
        int hops, boolean replace) implements RequestEvent {

    /**
     * An insert of a key that is not known to exist.
     *
     * @param requestId the node's handle for the request
     * @param key the key as text
     * @param valueSize the value's size in bytes
     * @param ownerIsLocal whether this node owns the key's range
     * @param rangeId the range the key falls in
     * @param hops how many nodes forwarded the request already
     */
    public InsertRequested(String requestId, String key, int valueSize, boolean ownerIsLocal, int rangeId,
            int hops) {
        this(requestId, key, valueSize, ownerIsLocal, rangeId, hops, false);
    }
}
