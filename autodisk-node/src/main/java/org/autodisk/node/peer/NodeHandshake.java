package org.autodisk.node.peer;

import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.CompletableFuture;
import org.autodisk.core.net.RequestChannel;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Hello;
import org.autodisk.core.protocol.Opcode;
import org.autodisk.core.protocol.Responses;
import org.autodisk.core.protocol.Status;
import org.autodisk.node.wire.NodeAuth;
import org.autodisk.node.wire.PeerOp;

/**
 * The connecting side of a node handshake ({@link NodeAuth}): HELLO with a nonce, check the answering node's proof
 * and id, then NODE_AUTH with this node's proof. Any failure is a {@link PeerException} naming the peer.
 */
final class NodeHandshake {

    private final String selfId;
    private final NodeAuth auth;
    private final Duration timeout;

    NodeHandshake(String selfId, NodeAuth auth, Duration timeout) {
        this.selfId = selfId;
        this.auth = auth;
        this.timeout = timeout;
    }

    /**
     * Performs the handshake on a new channel to a peer.
     *
     * @param ch     the channel
     * @param peerId the member expected at the other end
     * @return the peer's id once both proofs are checked
     */
    CompletableFuture<String> perform(RequestChannel ch, String peerId) {
        if (auth == null) {
            return CompletableFuture.failedFuture(refused(ch, "cannot be reached: this node has no cluster.secret "
                    + "to prove it belongs to the cluster"));
        }
        byte[] helloNonce = NodeAuth.nonce();
        Hello hello = new Hello(Frame.PROTOCOL_VERSION, Hello.PeerKind.NODE, selfId, helloNonce);
        return ch.send(Frame.request(Opcode.HELLO, 0, hello.encode()), timeout)
                .thenCompose(answer -> prove(ch, peerId, helloNonce, answer));
    }

    private CompletableFuture<String> prove(RequestChannel ch, String peerId, byte[] helloNonce, Frame answer) {
        byte[] body = answer.body();
        if (Responses.status(body) != Status.OK) {
            throw refused(ch, "refused the handshake: " + Responses.errorMessage(body));
        }
        String answered = Hello.answeringNode(body);
        byte[] ext = Hello.answerExtension(body);
        if (ext.length != 2 * NodeAuth.BYTES) {
            throw refused(ch, "answered the node handshake without a proof of cluster membership");
        }
        byte[] answerNonce = Arrays.copyOf(ext, NodeAuth.BYTES);
        byte[] proof = Arrays.copyOfRange(ext, NodeAuth.BYTES, ext.length);
        if (!auth.verify(proof, NodeAuth.Side.ANSWER, helloNonce, answerNonce, selfId, answered)) {
            throw refused(ch, "could not prove it belongs to the cluster (its cluster.secret differs)");
        }
        if (!answered.equals(peerId)) {
            throw refused(ch, "says it is " + answered + ", but cluster.nodes names " + peerId + " at that address");
        }
        byte[] mine = auth.prove(NodeAuth.Side.HELLO, helloNonce, answerNonce, selfId, answered);
        return ch.send(PeerOp.NODE_AUTH.request(mine), timeout).thenApply(resp -> {
            if (Responses.status(resp.body()) != Status.OK) {
                throw refused(ch, "refused this node's proof: " + Responses.errorMessage(resp.body()));
            }
            return answered;
        });
    }

    private static PeerException refused(RequestChannel ch, String why) {
        return new PeerException(Status.NODE_UNAVAILABLE, ch.describe() + " " + why);
    }
}
