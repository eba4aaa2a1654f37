package org.autodisk.node.wire;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Arrays;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.autodisk.core.protocol.BodyWriter;

/**
 * How a node proves it belongs to the cluster, by challenge and response over the shared cluster secret (which
 * never crosses the wire). Node A connects to node B:
 * <ol>
 * <li>A sends HELLO (kind node, id A) whose extension is a fresh 32-byte nonce {@code nA};</li>
 * <li>B answers OK (id B) with the extension {@code nB} (its own fresh nonce) and {@code HMAC(answer)};</li>
 * <li>A checks B's proof - B knows the secret - and sends NODE_AUTH with {@code HMAC(hello)};</li>
 * <li>B checks A's proof and answers OK, or NOT_PERMITTED and closes the connection.</li>
 * </ol>
 * Each proof is HMAC-SHA256 keyed with the secret over its role label, both nonces and both ids, so a recorded
 * proof is worth nothing on another connection, and neither side can reflect the other's proof back.
 */
public final class NodeAuth {

    /** Bytes of a nonce and of a proof. */
    public static final int BYTES = 32;

    private static final SecureRandom RANDOM = new SecureRandom();

    private final SecretKeySpec key;

    /** Which side of the handshake a proof is from. */
    public enum Side {
        /** The connecting node (its NODE_AUTH). */
        HELLO,
        /** The node connected to (its answer to the HELLO). */
        ANSWER
    }

    /**
     * Creates the prover and checker for one cluster.
     *
     * @param secret the cluster secret (at least 16 bytes)
     */
    public NodeAuth(byte[] secret) {
        if (secret.length < 16) {
            throw new IllegalArgumentException("the cluster secret must be at least 16 bytes");
        }
        this.key = new SecretKeySpec(secret.clone(), "HmacSHA256");
    }

    /**
     * Creates the prover from the secret's text.
     *
     * @param secret the cluster secret as configured
     * @return the prover
     */
    public static NodeAuth of(String secret) {
        return new NodeAuth(secret.getBytes(StandardCharsets.UTF_8));
    }

    /**
     * Returns a fresh random nonce.
     *
     * @return 32 bytes
     */
    public static byte[] nonce() {
        byte[] n = new byte[BYTES];
        RANDOM.nextBytes(n);
        return n;
    }

    /**
     * Computes a proof.
     *
     * @param side        who proves
     * @param helloNonce  the connecting node's nonce
     * @param answerNonce the answering node's nonce
     * @param helloId     the connecting node's id
     * @param answerId    the answering node's id
     * @return 32 bytes
     */
    public byte[] prove(Side side, byte[] helloNonce, byte[] answerNonce, String helloId, String answerId) {
        byte[] input = new BodyWriter(128).string("autodisk-node-auth/" + side.name()).shortBytes(helloNonce)
                .shortBytes(answerNonce).string(helloId).string(answerId).toBytes();
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(key);
            return mac.doFinal(input);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    /**
     * Checks a proof in constant time.
     *
     * @param given       the proof received (any length)
     * @param side        who should have proved
     * @param helloNonce  the connecting node's nonce
     * @param answerNonce the answering node's nonce
     * @param helloId     the connecting node's id
     * @param answerId    the answering node's id
     * @return true if it is right
     */
    public boolean verify(byte[] given, Side side, byte[] helloNonce, byte[] answerNonce, String helloId,
            String answerId) {
        return given.length == BYTES
                && MessageDigest.isEqual(given, prove(side, helloNonce, answerNonce, helloId, answerId));
    }

    /**
     * Builds the extension of the answer to a node's HELLO.
     *
     * @param answerNonce the answering node's nonce
     * @param proof       its proof
     * @return nonce followed by proof
     */
    public static byte[] answerExtension(byte[] answerNonce, byte[] proof) {
        byte[] out = Arrays.copyOf(answerNonce, BYTES * 2);
        System.arraycopy(proof, 0, out, BYTES, BYTES);
        return out;
    }
}
