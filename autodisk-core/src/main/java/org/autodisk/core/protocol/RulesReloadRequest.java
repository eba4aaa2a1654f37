package org.autodisk.core.protocol;

/**
 * RULES_RELOAD body: {@code u8 scope}. The only scope is {@link #CLUSTER}: every node recompiles its rule files
 * and all switch, or none does.
 *
 * @param scope what to reload
 */
public record RulesReloadRequest(int scope) {

    /** Every node of the cluster, from its own {@code rules.dir}. */
    public static final int CLUSTER = 0;

    /**
     * The request to reload the rules of the whole cluster.
     *
     * @return the request
     */
    public static RulesReloadRequest cluster() {
        return new RulesReloadRequest(CLUSTER);
    }

    /**
     * Encodes the body.
     *
     * @return body bytes
     */
    public byte[] encode() {
        return new BodyWriter(1).u8(scope).toBytes();
    }

    /**
     * Decodes a RULES_RELOAD body.
     *
     * @param body body bytes
     * @return the request
     * @throws ProtocolException MALFORMED for an unknown scope or trailing bytes
     */
    public static RulesReloadRequest decode(byte[] body) {
        BodyReader r = new BodyReader(body);
        int scope = r.u8("rules reload scope");
        r.expectEnd("RULES_RELOAD request");
        if (scope != CLUSTER) {
            throw new ProtocolException(Status.MALFORMED, "RULES_RELOAD scope " + scope + " is unknown (0: the "
                    + "whole cluster)");
        }
        return new RulesReloadRequest(scope);
    }
}
