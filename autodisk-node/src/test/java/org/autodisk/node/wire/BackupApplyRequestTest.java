package org.autodisk.node.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.autodisk.node.wire.WireTestSupport.assertMalformed;
import static org.autodisk.node.wire.WireTestSupport.bytes;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class BackupApplyRequestTest {

    @Test
    void roundTripsWithItsSpanStartAndRecords() {
        LogRecord r = new LogRecord(3, 2, 41, LogRecord.PUT, bytes("k"), bytes("v"));
        BackupApplyRequest decoded = BackupApplyRequest.decode(
                new BackupApplyRequest(40, new LogBatch("d1", List.of(r), 45)).encode());
        assertThat(decoded.fromLsn()).isEqualTo(40);
        assertThat(decoded.batch().stream()).isEqualTo("d1");
        assertThat(decoded.batch().lastLsn()).isEqualTo(45);
        assertThat(decoded.batch().records()).singleElement().satisfies(x -> {
            assertThat(x.lsn()).isEqualTo(41);
            assertThat(x.key()).isEqualTo(bytes("k"));
        });
    }

    @Test
    void aTruncatedBodyIsMalformed() {
        byte[] body = new BackupApplyRequest(0, new LogBatch("d1", List.of(), 0)).encode();
        assertMalformed(() -> BackupApplyRequest.decode(Arrays.copyOf(body, 5)), "from lsn");
        assertMalformed(() -> BackupApplyRequest.decode(Arrays.copyOf(body, body.length - 2)), "record count");
    }

    @Test
    void aBatchKnowsItsExactSizeSoItIsBuiltWithoutCopies() {
        LogBatch batch = new LogBatch("d\u00e9", List.of(new LogRecord(3, 2, 41, LogRecord.PUT, bytes("k"), bytes("v")),
                new LogRecord(3, 2, 42, LogRecord.DELETE, bytes("key"), new byte[0])), 45);
        assertThat(batch.encode()).hasSize(batch.encodedSize());
        assertThat(new BackupApplyRequest(40, batch).encode()).hasSize(8 + batch.encodedSize());
    }

    @Test
    void anLsnPairRoundTrips() {
        assertThat(PeerResponses.parseLsnPair(PeerResponses.lsnPair(7, 5))).containsExactly(7, 5);
    }
}
