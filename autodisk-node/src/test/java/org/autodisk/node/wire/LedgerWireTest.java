package org.autodisk.node.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.autodisk.node.wire.WireTestSupport.assertMalformed;
import static org.autodisk.node.wire.WireTestSupport.bytes;

import java.util.Arrays;
import java.util.List;
import org.autodisk.core.protocol.BodyWriter;
import org.junit.jupiter.api.Test;

class LedgerWireTest {

    private static LogRecord entry(long id) {
        return new LogRecord(3, 2, id, LogRecord.PUT, bytes("k" + id), bytes("value " + id));
    }

    @Test
    void anAppendRoundTripsWithItsFlagsAndConsecutiveEntries() {
        LedgerAppendRequest req = new LedgerAppendRequest(9, 4, true, 6, List.of(entry(7), entry(8)));
        LedgerAppendRequest back = LedgerAppendRequest.decode(req.encode());
        assertThat(back.ledgerId()).isEqualTo(9);
        assertThat(back.fragmentStart()).isEqualTo(4);
        assertThat(back.recovery()).isTrue();
        assertThat(back.lac()).isEqualTo(6);
        assertThat(back.firstEntry()).isEqualTo(7);
        assertThat(back.entries()).extracting(LogRecord::lsn).containsExactly(7L, 8L);
        assertThat(back.entries().get(1).value()).isEqualTo(bytes("value 8"));
        assertThat(LedgerAppendRequest.decode(new LedgerAppendRequest(9, 1, false, 0, List.of(entry(1))).encode())
                .recovery()).isFalse();
    }

    @Test
    void anApplyRoundTripsAndAQuestionCarriesNoEntries() {
        LedgerApplyRequest back = LedgerApplyRequest.decode(new LedgerApplyRequest(9, 7, false,
                List.of(entry(7), entry(8))).encode());
        assertThat(back.ledgerId()).isEqualTo(9);
        assertThat(back.firstEntry()).isEqualTo(7);
        assertThat(back.ownStore()).isFalse();
        assertThat(back.entries()).extracting(LogRecord::lsn).containsExactly(7L, 8L);
        LedgerApplyRequest question = LedgerApplyRequest.decode(LedgerApplyRequest.question(4, true).encode());
        assertThat(question.ownStore()).isTrue();
        assertThat(question.entries()).isEmpty();
    }

    @Test
    void anApplyWithBadFieldsIsMalformedNamingTheField() {
        assertMalformed(() -> LedgerApplyRequest.decode(new LedgerApplyRequest(9, 6, false, List.of(entry(7)))
                .encode()), "not the first entry 6");
        assertMalformed(() -> LedgerApplyRequest.decode(new LedgerApplyRequest(9, 7, true, List.of(entry(7)))
                .encode()), "carries no entries");
        assertMalformed(() -> LedgerApplyRequest.decode(new LedgerApplyRequest(0, 1, false, List.of()).encode()),
                "ledger id 0");
        byte[] flags = LedgerApplyRequest.question(3, false).encode();
        flags[16] = 4;
        assertMalformed(() -> LedgerApplyRequest.decode(flags), "flags 4");
        byte[] trailing = Arrays.copyOf(LedgerApplyRequest.question(3, false).encode(), 24);
        assertMalformed(() -> LedgerApplyRequest.decode(trailing), "3 trailing bytes");
        byte[] cut = new LedgerApplyRequest(9, 7, false, List.of(entry(7), entry(8))).encode();
        assertMalformed(() -> LedgerApplyRequest.decode(Arrays.copyOf(cut, cut.length - 3)), "");
    }

    @Test
    void anAppendWithAGapBetweenItsEntriesIsRefusedNamingBoth() {
        byte[] body = new LedgerAppendRequest(9, 1, false, 0, List.of(entry(3), entry(5))).encode();
        assertMalformed(() -> LedgerAppendRequest.decode(body), "entry 5 follows entry 3");
    }

    @Test
    void anAppendWithBadFieldsIsMalformedNamingTheField() {
        assertMalformed(() -> LedgerAppendRequest.decode(new LedgerAppendRequest(0, 1, false, 0,
                List.of(entry(1))).encode()), "ledger id 0");
        assertMalformed(() -> LedgerAppendRequest.decode(new LedgerAppendRequest(1, 0, false, 0,
                List.of(entry(1))).encode()), "fragment start 0");
        assertMalformed(() -> LedgerAppendRequest.decode(new LedgerAppendRequest(1, 1, false, -1,
                List.of(entry(1))).encode()), "last acknowledged entry -1");
        assertMalformed(() -> LedgerAppendRequest.decode(new LedgerAppendRequest(1, 1, false, 0,
                List.of(entry(0))).encode()), "entry id 0");
        assertMalformed(() -> LedgerAppendRequest.decode(new LedgerAppendRequest(1, 1, false, 0,
                List.of()).encode()), "entry count 0");
        byte[] flags = new LedgerAppendRequest(1, 1, false, 0, List.of(entry(1))).encode();
        flags[16] = 2;
        assertMalformed(() -> LedgerAppendRequest.decode(flags), "flags 2");
    }

    @Test
    void aDamagedOrCutAppendIsMalformed() {
        byte[] body = new LedgerAppendRequest(1, 1, false, 0, List.of(entry(1), entry(2))).encode();
        byte[] flipped = body.clone();
        flipped[body.length - 6] ^= 1;
        assertMalformed(() -> LedgerAppendRequest.decode(flipped), "CRC32C");
        assertMalformed(() -> LedgerAppendRequest.decode(Arrays.copyOf(body, body.length - 3)), "crc needs 4 bytes");
        assertMalformed(() -> LedgerAppendRequest.decode(Arrays.copyOf(body, 10)), "fragment start");
        byte[] longer = Arrays.copyOf(body, body.length + 1);
        assertMalformed(() -> LedgerAppendRequest.decode(longer), "1 trailing bytes");
    }

    @Test
    void aReadAndAFenceRoundTripAndRefuseBadFields() {
        LedgerReadRequest read = LedgerReadRequest.decode(new LedgerReadRequest(5, 10, 100).encode());
        assertThat(read).isEqualTo(new LedgerReadRequest(5, 10, 100));
        assertMalformed(() -> LedgerReadRequest.decode(new LedgerReadRequest(5, 0, 1).encode()), "first entry 0");
        assertMalformed(() -> LedgerReadRequest.decode(new LedgerReadRequest(5, 1, 0).encode()), "max entries 0");
        assertThat(LedgerWire.parseFence(LedgerWire.fence(12))).isEqualTo(12);
        assertMalformed(() -> LedgerWire.parseFence(LedgerWire.fence(-1)), "ledger id -1");
        assertMalformed(() -> LedgerWire.parseFence(new byte[3]), "ledger id");
    }

    @Test
    void entriesReadRoundTripAndAnEmptyAnswerHasNone() {
        assertThat(LedgerWire.parseEntries(LedgerWire.entriesResult(List.of(entry(4), entry(5)))))
                .extracting(LogRecord::lsn).containsExactly(4L, 5L);
        assertThat(LedgerWire.parseEntries(LedgerWire.entriesResult(List.of()))).isEmpty();
        byte[] lying = new BodyWriter(5).u8(0).i32(1000).toBytes();
        assertMalformed(() -> LedgerWire.parseEntries(lying), "entry count 1000");
    }

    @Test
    void aLeaseRenewalAndItsAnswerRoundTripAndRefuseBadLists() {
        assertThat(LedgerWire.parseLedgerIds(LedgerWire.ledgerIds(List.of(3L, 9L, 12L)))).containsExactly(3L, 9L, 12L);
        assertThat(LedgerWire.parseLedgerIds(LedgerWire.ledgerIds(List.of()))).isEmpty();
        assertThat(LedgerWire.parseFencedResult(LedgerWire.fencedResult(List.of(9L)))).containsExactly(9L);
        assertMalformed(() -> LedgerWire.parseLedgerIds(LedgerWire.ledgerIds(List.of(0L))), "ledger id 0");
        assertMalformed(() -> LedgerWire.parseLedgerIds(new BodyWriter(4).i32(5).toBytes()), "ledger count 5");
        assertMalformed(() -> LedgerWire.parseLedgerIds(new BodyWriter(4).i32(-1).toBytes()), "ledger count -1");
        byte[] trailing = Arrays.copyOf(LedgerWire.ledgerIds(List.of(3L)), 14);
        assertMalformed(() -> LedgerWire.parseLedgerIds(trailing), "2 unexpected trailing bytes");
        assertMalformed(() -> LedgerWire.parseLedgerIds(new byte[2]), "ledger count");
    }

    @Test
    void aHeartbeatRoundTripsAsRequestAndAnswerAndRefusesGarbage() {
        Heartbeat hb = new Heartbeat("d1", 42, List.of("d3", "l2"));
        assertThat(Heartbeat.decode(hb.encode())).isEqualTo(hb);
        assertThat(Heartbeat.decodeAnswer(hb.encodeAnswer())).isEqualTo(hb);
        assertMalformed(() -> Heartbeat.decode(new Heartbeat("", 1, List.of()).encode()), "names its sender");
        byte[] body = hb.encode();
        assertMalformed(() -> Heartbeat.decode(Arrays.copyOf(body, body.length - 1)), "suspect");
        assertMalformed(() -> Heartbeat.decode(Arrays.copyOf(body, body.length + 3)), "3 unexpected trailing bytes");
        assertMalformed(() -> Heartbeat.decode(new BodyWriter(16).string("d1").i64(1).i32(100_000).toBytes()),
                "suspect count 100000");
        java.util.Random random = new java.util.Random(7);
        for (int i = 0; i < 5_000; i++) {
            byte[] garbage = new byte[random.nextInt(40)];
            random.nextBytes(garbage);
            try {
                Heartbeat.decode(garbage);
            } catch (org.autodisk.core.protocol.ProtocolException e) {
                assertThat(e.status()).isEqualTo(org.autodisk.core.protocol.Status.MALFORMED);
            }
        }
    }
}
