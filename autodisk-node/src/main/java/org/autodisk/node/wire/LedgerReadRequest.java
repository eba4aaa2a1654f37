package org.autodisk.node.wire;

import org.autodisk.core.protocol.BodyReader;
import org.autodisk.core.protocol.BodyWriter;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;

/**
 * LEDGER_READ body: consecutive entries of a ledger from an entry on.
 *
 * @param ledgerId the ledger (&ge; 1)
 * @param from     the first entry wanted (&ge; 1)
 * @param max      at most this many (&ge; 1); the answer is also cut at the node's response size
 */
public record LedgerReadRequest(long ledgerId, long from, int max) {

    /**
     * Encodes the body.
     *
     * @return body bytes
     */
    public byte[] encode() {
        return new BodyWriter(20).i64(ledgerId).i64(from).i32(max).toBytes();
    }

    /**
     * Decodes a LEDGER_READ body.
     *
     * @param body body bytes
     * @return the request
     */
    public static LedgerReadRequest decode(byte[] body) {
        BodyReader r = new BodyReader(body);
        long ledger = LedgerWire.positive(r.i64("ledger id"), "ledger id");
        long from = LedgerWire.positive(r.i64("first entry"), "first entry");
        int max = r.i32("max entries");
        if (max < 1) {
            throw new ProtocolException(Status.MALFORMED, "max entries " + max + " is not positive");
        }
        r.expectEnd("LEDGER_READ request");
        return new LedgerReadRequest(ledger, from, max);
    }
}
