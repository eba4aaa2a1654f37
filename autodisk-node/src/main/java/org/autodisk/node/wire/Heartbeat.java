package org.autodisk.node.wire;

import java.util.ArrayList;
import java.util.List;
import org.autodisk.core.protocol.BodyReader;
import org.autodisk.core.protocol.BodyWriter;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;

/**
 * A HEARTBEAT body, request and answer alike: who sends it, the metadata version it has applied, and the nodes it
 * suspects (not heard from for {@code failure.suspect-ms}); every node learns each other's suspicions from them.
 *
 * @param sender          the node that sends it
 * @param metadataVersion the metadata version it has applied
 * @param suspects        the nodes it suspects
 */
public record Heartbeat(String sender, long metadataVersion, List<String> suspects) {

    /** The most suspects one heartbeat names. */
    public static final int MAX_SUSPECTS = 4096;

    /** Copies the list. */
    public Heartbeat {
        suspects = List.copyOf(suspects);
    }

    /**
     * Encodes the heartbeat.
     *
     * @return body bytes
     */
    public byte[] encode() {
        BodyWriter w = new BodyWriter(32 + 16 * suspects.size()).string(sender).i64(metadataVersion)
                .i32(suspects.size());
        suspects.forEach(w::string);
        return w.toBytes();
    }

    /**
     * Encodes the heartbeat as an OK answer.
     *
     * @return body bytes, the status first
     */
    public byte[] encodeAnswer() {
        byte[] b = encode();
        return new BodyWriter(b.length + 1).u8(Status.OK.code()).raw(b).toBytes();
    }

    /**
     * Decodes a heartbeat request.
     *
     * @param body body bytes
     * @return the heartbeat
     * @throws ProtocolException MALFORMED, naming what is wrong
     */
    public static Heartbeat decode(byte[] body) {
        return read(new BodyReader(body));
    }

    /**
     * Decodes an OK answer.
     *
     * @param body the answer's body
     * @return the heartbeat
     * @throws ProtocolException MALFORMED, naming what is wrong
     */
    public static Heartbeat decodeAnswer(byte[] body) {
        return read(new BodyReader(body, 1, body.length));
    }

    private static Heartbeat read(BodyReader r) {
        String sender = r.string("sender");
        if (sender.isEmpty()) {
            throw new ProtocolException(Status.MALFORMED, "a HEARTBEAT names its sender");
        }
        long version = r.i64("metadata version");
        int n = r.i32("suspect count");
        if (n < 0 || n > MAX_SUSPECTS || n > r.remaining() / 2) {
            throw new ProtocolException(Status.MALFORMED, "suspect count " + n + " does not fit the HEARTBEAT");
        }
        List<String> suspects = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            suspects.add(r.string("suspect"));
        }
        r.expectEnd("HEARTBEAT");
        return new Heartbeat(sender, version, suspects);
    }
}
