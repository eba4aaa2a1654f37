package org.autodisk.core.protocol;

import static org.assertj.core.api.Assertions.assertThat;
import static org.autodisk.core.protocol.MessagesTest.assertEveryPrefixIsMalformed;
import static org.autodisk.core.protocol.MessagesTest.assertMalformed;
import static org.autodisk.core.protocol.MessagesTest.bytes;

import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.From;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.Size;
import org.junit.jupiter.api.Test;

/** Response bodies: status byte first, then a message or the operation's payload. */
class ResponsesTest {

    @Test
    void okIsJustTheStatusByteAndAFreshArrayEachTime() {
        byte[] first = Responses.ok();
        first[0] = 9;

        assertThat(Responses.ok()).containsExactly(0);
        assertThat(Responses.status(Responses.ok())).isEqualTo(Status.OK);
    }

    @Property
    void errorCarriesStatusAndMessage(@ForAll Status status, @ForAll("text") String message) {
        byte[] body = Responses.error(status, message);

        assertThat(Responses.status(body)).isEqualTo(status);
        assertThat(Responses.errorMessage(body)).isEqualTo(message);
    }

    @Test
    void errorWithoutMessageReadsAsNoMessage() {
        assertThat(Responses.errorMessage(new byte[] {(byte) Status.TIMEOUT.code()})).isEqualTo("(no message)");
    }

    @Test
    void statusOfEmptyOrUnknownBodies() {
        assertMalformed(() -> Responses.status(new byte[0]), "empty response body");
        assertThat(Responses.status(new byte[] {(byte) 200})).isEqualTo(Status.INTERNAL_ERROR);
        for (Status s : Status.values()) {
            assertThat(Status.fromCode(s.code())).isEqualTo(s);
        }
        assertThat(Status.fromCode(-1)).isEqualTo(Status.INTERNAL_ERROR);
        assertThat(Status.fromCode(256)).isEqualTo(Status.INTERNAL_ERROR);
    }

    @Property
    void searchResultFoundRoundTrips(@ForAll @Size(max = 4096) byte[] value) {
        byte[] body = Responses.searchResult(value);

        assertThat(Responses.status(body)).isEqualTo(Status.OK);
        assertThat(Responses.parseSearch(body)).isEqualTo(value);
    }

    @Test
    void searchResultNotFoundIsNullAndFoundEmptyIsNot() {
        assertThat(Responses.parseSearch(Responses.searchResult(null))).isNull();
        assertThat(Responses.parseSearch(Responses.searchResult(new byte[0]))).isNotNull().isEmpty();
    }

    @Test
    void deleteResultRoundTrips() {
        assertThat(Responses.parseDelete(Responses.deleteResult(true))).isTrue();
        assertThat(Responses.parseDelete(Responses.deleteResult(false))).isFalse();
        assertThat(Responses.status(Responses.deleteResult(true))).isEqualTo(Status.OK);
    }

    @Property
    void traverseResultRoundTrips(@ForAll @Size(max = 20) List<@From("entry") KeyValue> entries,
            @ForAll boolean cut, @ForAll @Size(min = 1, max = 1024) byte[] resume) {
        TraverseResult page = new TraverseResult(entries, cut ? resume : null);

        TraverseResult decoded = Responses.parseTraverse(Responses.traverseResult(page));

        assertThat(decoded.entries()).hasSameSizeAs(entries);
        for (int i = 0; i < entries.size(); i++) {
            assertThat(decoded.entries().get(i).key()).isEqualTo(entries.get(i).key());
            assertThat(decoded.entries().get(i).value()).isEqualTo(entries.get(i).value());
        }
        assertThat(decoded.resumeKey()).isEqualTo(cut ? resume : null);
    }

    @Test
    void emptyTraversePageWithoutResumeKey() {
        TraverseResult decoded = Responses.parseTraverse(Responses.traverseResult(new TraverseResult(List.of(),
                null)));

        assertThat(decoded.entries()).isEmpty();
        assertThat(decoded.resumeKey()).isNull();
    }

    @Property
    void bytesResultRoundTrips(@ForAll @Size(max = 4096) byte[] payload) {
        assertThat(Responses.parseBytes(Responses.bytesResult(payload))).isEqualTo(payload);
    }

    @Test
    void truncatedResponsesAreMalformedAndNameTheField() {
        byte[] search = Responses.searchResult(bytes("value"));
        byte[] page = Responses.traverseResult(new TraverseResult(List.of(kv("k1", "v1"), kv("k2", "v2")),
                bytes("k3")));
        byte[] payload = Responses.bytesResult(bytes("{\"json\":true}"));

        assertEveryPrefixIsMalformed(search, Responses::parseSearch);
        assertEveryPrefixIsMalformed(page, Responses::parseTraverse);
        assertEveryPrefixIsMalformed(payload, Responses::parseBytes);
        assertMalformed(() -> Responses.parseSearch(new byte[] {0}), "found flag");
        assertMalformed(() -> Responses.parseSearch(Arrays.copyOf(search, search.length - 1)),
                "value needs 5 bytes, 4 left");
        assertMalformed(() -> Responses.parseDelete(new byte[] {0}), "existed flag");
        assertMalformed(() -> Responses.parseTraverse(Arrays.copyOf(page, 3)), "entry count");
        assertMalformed(() -> Responses.parseTraverse(Arrays.copyOf(page, 7)), "entry count 2 does not fit");
        assertMalformed(() -> Responses.parseTraverse(Arrays.copyOf(page, 18)), "key needs 2 bytes, 1 left");
        assertMalformed(() -> Responses.parseTraverse(Arrays.copyOf(page, page.length - 5)), "resume flag");
        assertMalformed(() -> Responses.parseTraverse(Arrays.copyOf(page, page.length - 1)),
                "resume key needs 2 bytes, 1 left");
        assertMalformed(() -> Responses.parseBytes(Arrays.copyOf(payload, 4)), "payload length");
    }

    @Test
    void traverseEntryCountThatDoesNotFitTheBodyIsMalformedNotAnAllocation() {
        byte[] huge = {0, 0x7f, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0};
        byte[] negative = {0, (byte) 0xff, (byte) 0xff, (byte) 0xff, (byte) 0xff, 0};
        byte[] oneTooMany = Responses.traverseResult(new TraverseResult(List.of(kv("a", "b")), null));
        oneTooMany[4] = 2;

        assertMalformed(() -> Responses.parseTraverse(huge), "entry count 2147483647 does not fit the body");
        assertMalformed(() -> Responses.parseTraverse(negative), "entry count -1 does not fit the body");
        assertMalformed(() -> Responses.parseTraverse(oneTooMany), "entry count 2 does not fit the body");
    }

    @Test
    void traverseEntryCountThatFitsButLiesIsMalformed() {
        // count 2 and 12 bytes left passes the size check, but the second entry is not there
        byte[] body = {0, 0, 0, 0, 2, 0, 1, 'k', 0, 0, 0, 1, 'v', 0, 0, 0, 0};

        assertMalformed(() -> Responses.parseTraverse(body), "value");
    }

    @Provide
    Arbitrary<KeyValue> entry() {
        return Combinators.combine(Arbitraries.bytes().array(byte[].class).ofMinSize(1).ofMaxSize(64),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(256)).as(KeyValue::new);
    }

    @Provide
    Arbitrary<String> text() {
        return Arbitraries.strings().withCharRange('\u0000', '\ud7ff').ofMaxLength(200);
    }

    private static KeyValue kv(String key, String value) {
        return new KeyValue(bytes(key), bytes(value));
    }
}
