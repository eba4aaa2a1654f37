package org.autodisk.client;

import java.util.List;
import java.util.function.Function;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.core.protocol.Trace;
import org.autodisk.core.protocol.TraceHop;

/**
 * A successful answer: the body without its trace trailer (status byte first, as the parsers in
 * {@link Responses} expect) and the hops of the trailer.
 *
 * @param nodeId the node that answered
 * @param body   the response body, trailer stripped
 * @param hops   the trace hops, owner first; empty if the answer was not traced
 */
record Reply(String nodeId, byte[] body, List<TraceHop> hops) {

    /**
     * Checks a response frame and splits off its trace trailer.
     *
     * @param frame  the response
     * @param nodeId the node that sent it
     * @return the reply
     * @throws AutoDiskException of the status's type if the status is not OK, or if the frame is malformed
     */
    static Reply of(Frame frame, String nodeId) {
        byte[] body = frame.body();
        List<TraceHop> hops = List.of();
        try {
            if (frame.isTraced() && Responses.status(body) == Status.OK) {
                hops = Trace.hops(body);
                body = Trace.strip(body);
            }
            Status status = Responses.status(body);
            if (status != Status.OK) {
                throw Errors.fromStatus(status, errorMessage(frame, body), nodeId);
            }
        } catch (ProtocolException e) {
            throw malformed(frame, nodeId, e);
        }
        return new Reply(nodeId, body, hops);
    }

    private static String errorMessage(Frame frame, byte[] body) {
        // an error answer to a traced request may come with or without a trailer
        if (frame.isTraced() && !isPlainError(body)) {
            return Responses.errorMessage(Trace.strip(body));
        }
        return Responses.errorMessage(body);
    }

    private static boolean isPlainError(byte[] body) {
        return body.length < 3 || 3 + ((body[1] & 0xFF) << 8 | body[2] & 0xFF) == body.length;
    }

    /**
     * Parses the payload, turning a layout error into a client-side failure naming the node.
     *
     * @param parser the payload parser
     * @param <T>    the payload type
     * @return the payload
     */
    <T> T parse(Function<byte[], T> parser) {
        try {
            return parser.apply(body);
        } catch (ProtocolException e) {
            throw new AutoDiskException("malformed answer from node " + nodeId + ": " + e.getMessage(), null,
                    nodeId, e);
        }
    }

    private static AutoDiskException malformed(Frame frame, String nodeId, ProtocolException e) {
        return new AutoDiskException("malformed answer from node " + nodeId + " to " + frame + ": "
                + e.getMessage(), null, nodeId, e);
    }
}
