package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;
import org.junit.jupiter.api.Test;

/**
 * Page messages on the wire (PAGE_MESSAGE bodies): every kind round trips with its sender; a cut, padded, unnamed or
 * unknown body, and random bytes, get MALFORMED saying what was found, and nothing else.
 */
class PageMessageCodecTest {

    private static final Page PAGE = new Page(5, 1, new byte[0], null, List.of(new Entry(new byte[0], 1,
            List.of("d1", "d2"))), 3);
    private static final Page PAGE2 = new Page(6, 2, new byte[0], null, List.of(new Entry(new byte[0], 5,
            List.of("d1", "d2"))), 1);
    private static final List<PageMessage> ALL = List.of(new PageMessage.LockRequest(77, 5),
            new PageMessage.LockGranted(77), new PageMessage.Release(-1), new PageMessage.Applied(Long.MAX_VALUE),
            new PageMessage.Restarted(), new PageMessage.Restarted(List.of(3L, -9L)),
            new PageMessage.Batch(new PageBatch(77, List.of(PAGE), List.of(new PageBatch.Dropped(4, 2)), 5)),
            new PageMessage.Batch(new PageBatch(78, List.of(PAGE, PAGE2), List.of(), -1), recordOf(78)));

    @Test
    void everyKindRoundTripsWithItsSender() {
        for (PageMessage m : ALL) {
            PageMessageCodec.From back = PageMessageCodec.decode(PageMessageCodec.encode("d12", m));
            assertThat(back.sender()).isEqualTo("d12");
            assertThat(back.message()).isEqualTo(m);
        }
    }

    /** A change writing PAGE and PAGE2 on d1 and d2, PAGE alone on d3, and dropping PAGE2 on d4. */
    private static Map<String, PageBatch> recordOf(long change) {
        Map<String, PageBatch> record = new LinkedHashMap<>();
        record.put("d1", new PageBatch(change, List.of(PAGE, PAGE2), List.of(), PAGE2.id()));
        record.put("d2", new PageBatch(change, List.of(PAGE, PAGE2), List.of(), PAGE2.id()));
        record.put("d3", new PageBatch(change, List.of(PAGE), List.of(), -1));
        record.put("d4", new PageBatch(change, List.of(), List.of(new PageBatch.Dropped(PAGE2.id(), 1)), -1));
        return record;
    }

    @Test
    void aRecordHoldsEachPageOnceAndRoundTripsInOrder() {
        byte[] one = ChangeRecordCodec.encode(78, Map.of("d1", recordOf(78).get("d1")));
        byte[] all = ChangeRecordCodec.encode(78, recordOf(78));
        assertThat(all.length - one.length).as("three more nodes cost their names and indexes, not pages")
                .isLessThan(3 * 40);
        java.nio.ByteBuffer b = java.nio.ByteBuffer.wrap(all);
        assertThat(ChangeRecordCodec.decode(b, 78)).containsExactlyEntriesOf(recordOf(78));
        assertThat(b.hasRemaining()).isFalse();
        int d1 = 4 + java.nio.ByteBuffer.wrap(all).getInt() + 2; // after the pages and the count of nodes
        byte[] unnamed = all.clone();
        unnamed[d1] = 0;
        assertThatThrownBy(() -> ChangeRecordCodec.decode(java.nio.ByteBuffer.wrap(unnamed), 78))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("names no node");
        byte[] beyond = all.clone();
        beyond[d1 + 1 + 2 + 2 + 1] = 5; // d1's first page
        assertThatThrownBy(() -> ChangeRecordCodec.decode(java.nio.ByteBuffer.wrap(beyond), 78))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("puts page 5 of 2");
        assertThatThrownBy(() -> ChangeRecordCodec.decode(java.nio.ByteBuffer.wrap(all), 79))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("of change 78, not 79");
        byte[] twice = all.clone();
        twice[d1 + 1 + 2 + 2 + 2 + 2 + 2 + 8 + 2] = '1'; // d2 named d1
        assertThatThrownBy(() -> ChangeRecordCodec.decode(java.nio.ByteBuffer.wrap(twice), 78))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("names d1 twice");
    }

    @Test
    void cutAndPaddedBodiesAreMalformed() {
        for (PageMessage m : ALL) {
            byte[] body = PageMessageCodec.encode("d1", m);
            for (int len = 0; len < body.length; len++) {
                byte[] cut = Arrays.copyOf(body, len);
                assertThatThrownBy(() -> PageMessageCodec.decode(cut)).as("%s cut to %d bytes", m, len)
                        .isInstanceOf(ProtocolException.class).hasMessageContaining("malformed");
            }
            assertThatThrownBy(() -> PageMessageCodec.decode(Arrays.copyOf(body, body.length + 1)))
                    .isInstanceOf(ProtocolException.class).hasMessageContaining("1 bytes after");
        }
    }

    @Test
    void aBodyWithoutSenderOrOfUnknownKindIsNamed() {
        assertThatThrownBy(() -> PageMessageCodec.decode(new byte[] {1, 0, 1, 0, 0, 0, 0, 0, 0, 0, 1}))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("names no sender");
        assertThatThrownBy(() -> PageMessageCodec.decode(new byte[] {1, 1, 'd', 9, 0, 0, 0, 0, 0, 0, 0, 1}))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("unknown kind 9");
        assertThatThrownBy(() -> PageMessageCodec.encode("", new PageMessage.Release(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aBodyOfAnotherFormatIsRefusedNamingBoth() {
        byte[] body = PageMessageCodec.encode("d1", new PageMessage.Release(4));
        assertThat(body[0]).isEqualTo((byte) PageFormat.CURRENT);
        body[0] = 2;
        assertThatThrownBy(() -> PageMessageCodec.decode(body)).isInstanceOf(ProtocolException.class)
                .hasMessage("a directory page message of format 2: this node reads format 1 only (a node of another "
                        + "build?)")
                .satisfies(e -> assertThat(((ProtocolException) e).status()).isEqualTo(Status.UNSUPPORTED_VERSION));
    }

    @Test
    void randomBytesAreMalformedOrAMessageNeverAnotherFailure() {
        Random rnd = new Random(15);
        for (int i = 0; i < 20_000; i++) {
            byte[] body = new byte[rnd.nextInt(40)];
            rnd.nextBytes(body);
            if (body.length > 0) {
                body[0] = (byte) PageFormat.CURRENT;
            }
            if (body.length > 2) {
                body[1] = (byte) Math.min(body.length - 2, 3);
                body[Math.min(body.length - 1, 5)] = (byte) (1 + rnd.nextInt(6));
            }
            try {
                assertThat(PageMessageCodec.decode(body).message()).isNotNull();
            } catch (ProtocolException e) {
                assertThat(e.getMessage()).contains("malformed");
            }
        }
    }
}
