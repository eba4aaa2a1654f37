package org.autodisk.core.protocol;

import java.util.ArrayList;
import java.util.List;
import org.autodisk.core.cluster.ClusterStatus;
import org.autodisk.core.cluster.RangeStatus;

/**
 * Builds and parses response bodies. Every body starts with a {@link Status} byte; an error is followed by a
 * message, a success by the operation's payload. Parsers expect a body whose {@link Trace} trailer, if any,
 * was stripped.
 */
public final class Responses {

    private static final byte[] OK = {0};

    private Responses() {
    }

    /**
     * A success without payload (INSERT).
     *
     * @return body bytes
     */
    public static byte[] ok() {
        return OK.clone();
    }

    /**
     * An error.
     *
     * @param status  the status, not OK
     * @param message what went wrong, naming the limit or node
     * @return body bytes
     */
    public static byte[] error(Status status, String message) {
        return new BodyWriter(message.length() + 3).u8(status.code()).string(message).toBytes();
    }

    /**
     * A STALE_MAP error: the message, then {@code i64 version} and the range now holding the key as JSON.
     *
     * @param stale what the receiver knows
     * @return body bytes
     */
    public static byte[] staleMap(StaleMap stale) {
        byte[] range = ClusterStatus.write(stale.range());
        return new BodyWriter(stale.message().length() + range.length + 20).u8(Status.STALE_MAP.code())
                .string(stale.message()).i64(stale.version()).longBytes(range).toBytes();
    }

    /**
     * Parses a STALE_MAP error.
     *
     * @param body a response body whose status is STALE_MAP
     * @return what the receiver knows
     */
    public static StaleMap parseStaleMap(byte[] body) {
        BodyReader r = payload(body);
        String message = r.string("error message");
        long version = r.i64("metadata version");
        return new StaleMap(message, version, ClusterStatus.read(r.longBytes("range"), RangeStatus.class));
    }

    /**
     * A SEARCH result.
     *
     * @param value the value, or {@code null} if the key has no stream
     * @return body bytes
     */
    public static byte[] searchResult(byte[] value) {
        BodyWriter w = new BodyWriter(value == null ? 2 : value.length + 6).u8(Status.OK.code());
        return value == null ? w.u8(0).toBytes() : w.u8(1).longBytes(value).toBytes();
    }

    /**
     * A DELETE result.
     *
     * @param existed whether a stream was removed
     * @return body bytes
     */
    public static byte[] deleteResult(boolean existed) {
        return new byte[] {0, (byte) (existed ? 1 : 0)};
    }

    /**
     * A TRAVERSE page.
     *
     * @param result entries and resume key
     * @return body bytes
     */
    public static byte[] traverseResult(TraverseResult result) {
        BodyWriter w = new BodyWriter(64).u8(Status.OK.code()).i32(result.entries().size());
        for (KeyValue kv : result.entries()) {
            w.shortBytes(kv.key()).longBytes(kv.value());
        }
        return result.resumeKey() == null ? w.u8(0).toBytes() : w.u8(1).shortBytes(result.resumeKey()).toBytes();
    }

    /**
     * A success carrying opaque bytes (STATUS and RULES_RELOAD carry JSON).
     *
     * @param payload the bytes
     * @return body bytes
     */
    public static byte[] bytesResult(byte[] payload) {
        return new BodyWriter(payload.length + 5).u8(Status.OK.code()).longBytes(payload).toBytes();
    }

    /**
     * Reads the status byte.
     *
     * @param body a response body
     * @return its status
     */
    public static Status status(byte[] body) {
        if (body.length == 0) {
            throw new ProtocolException(Status.MALFORMED, "empty response body");
        }
        return Status.fromCode(body[0] & 0xFF);
    }

    /**
     * Reads the message of an error response.
     *
     * @param body a response body whose status is not OK
     * @return the message
     */
    public static String errorMessage(byte[] body) {
        BodyReader r = payload(body);
        return r.remaining() >= 2 ? r.string("error message") : "(no message)";
    }

    /**
     * Parses a SEARCH result.
     *
     * @param body an OK response body
     * @return the value or {@code null}
     */
    public static byte[] parseSearch(byte[] body) {
        BodyReader r = payload(body);
        return r.u8("found flag") == 0 ? null : r.longBytes("value");
    }

    /**
     * Parses a DELETE result.
     *
     * @param body an OK response body
     * @return whether a stream was removed
     */
    public static boolean parseDelete(byte[] body) {
        return payload(body).u8("existed flag") != 0;
    }

    /**
     * Parses a TRAVERSE page.
     *
     * @param body an OK response body
     * @return the page
     */
    public static TraverseResult parseTraverse(byte[] body) {
        BodyReader r = payload(body);
        int n = r.i32("entry count");
        if (n < 0 || n > r.remaining() / 6) {
            throw new ProtocolException(Status.MALFORMED, "entry count " + n + " does not fit the body");
        }
        List<KeyValue> entries = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            entries.add(new KeyValue(r.shortBytes("key"), r.longBytes("value")));
        }
        byte[] resume = r.u8("resume flag") == 0 ? null : r.shortBytes("resume key");
        return new TraverseResult(entries, resume);
    }

    /**
     * Parses an opaque-bytes result.
     *
     * @param body an OK response body
     * @return the payload
     */
    public static byte[] parseBytes(byte[] body) {
        return payload(body).longBytes("payload");
    }

    private static BodyReader payload(byte[] body) {
        return new BodyReader(body, 1, body.length);
    }
}
