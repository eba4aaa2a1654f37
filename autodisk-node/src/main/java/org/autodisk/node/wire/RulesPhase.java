package org.autodisk.node.wire;

import org.autodisk.core.protocol.BodyReader;
import org.autodisk.core.protocol.BodyWriter;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;

/**
 * RULES_PHASE body: {@code u8 phase, i64 token}: one step of a cluster-wide rules reload, sent by the node that
 * coordinates it to every member.
 *
 * @param phase what to do
 * @param token identifies the reload
 */
public record RulesPhase(Phase phase, long token) {

    /** The steps of a reload. */
    public enum Phase {
        /** Compile the rule files as they are now and keep the result under the token. */
        PREPARE,
        /** Install what was compiled under the token. */
        COMMIT,
        /** Drop what was compiled under the token. */
        ABORT
    }

    /**
     * Encodes the body.
     *
     * @return body bytes
     */
    public byte[] encode() {
        return new BodyWriter(9).u8(phase.ordinal()).i64(token).toBytes();
    }

    /**
     * Decodes a RULES_PHASE body.
     *
     * @param body body bytes
     * @return the phase
     * @throws ProtocolException MALFORMED for an unknown phase or a wrong length
     */
    public static RulesPhase decode(byte[] body) {
        BodyReader r = new BodyReader(body);
        int phase = r.u8("rules phase");
        long token = r.i64("rules reload token");
        r.expectEnd("RULES_PHASE request");
        if (phase >= Phase.values().length) {
            throw new ProtocolException(Status.MALFORMED, "RULES_PHASE phase " + phase + " is unknown (0 prepare, "
                    + "1 commit, 2 abort)");
        }
        return new RulesPhase(Phase.values()[phase], token);
    }
}
