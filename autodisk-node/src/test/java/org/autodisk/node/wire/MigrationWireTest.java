package org.autodisk.node.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.KeyValue;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;
import org.junit.jupiter.api.Test;

/**
 * MIGRATION_READ and its chunks: round trips, a damaged chunk fails its CRC, truncated and bad fields are named;
 * LEDGER_HANDOVER round trips and refuses bad bodies.
 */
class MigrationWireTest {

    @Test
    void aChunkRoundTripsWithItsPositionsAndResumeKey() {
        MigrationChunk c = new MigrationChunk(List.of(new KeyValue(Keys.utf8("a"), Keys.utf8("1")),
                new KeyValue(Keys.utf8("b"), new byte[70_000])), Keys.utf8("c"), Map.of(3L, 99L));
        MigrationChunk back = MigrationChunk.decode(c.encode());
        assertThat(back.streams()).hasSize(2);
        assertThat(back.streams().get(1).value()).hasSize(70_000);
        assertThat(back.next()).isEqualTo(Keys.utf8("c"));
        assertThat(back.positions()).containsEntry(3L, 99L);
        assertThat(back.bytes()).isEqualTo(c.bytes());
        MigrationChunk last = MigrationChunk.decode(new MigrationChunk(List.of(), null, Map.of()).encode());
        assertThat(last.next()).isNull();
        assertThat(last.streams()).isEmpty();
    }

    @Test
    void aDamagedChunkFailsItsCrcAndATruncatedOneNamesTheField() {
        byte[] body = new MigrationChunk(List.of(new KeyValue(Keys.utf8("key"), Keys.utf8("value"))), null,
                Map.of()).encode();
        byte[] damaged = body.clone();
        damaged[damaged.length - 6] ^= 1;
        assertThatThrownBy(() -> MigrationChunk.decode(damaged)).isInstanceOf(ProtocolException.class)
                .hasMessageContaining("CRC32C");
        assertThatThrownBy(() -> MigrationChunk.decode(Arrays.copyOf(body, body.length - 2)))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("truncated")
                .satisfies(e -> assertThat(((ProtocolException) e).status()).isEqualTo(Status.MALFORMED));
    }

    @Test
    void aReadRequestRoundTripsAndBadFieldsAreRefused() {
        MigrationReadRequest r = MigrationReadRequest.decode(new MigrationReadRequest(7, Keys.utf8("k"), 1 << 20, true)
                .encode());
        assertThat(r.migrationId()).isEqualTo(7);
        assertThat(r.from()).isEqualTo(Keys.utf8("k"));
        assertThat(r.fresh()).isTrue();
        assertThatThrownBy(() -> MigrationReadRequest.decode(new MigrationReadRequest(0, new byte[0], 1, false)
                .encode())).isInstanceOf(ProtocolException.class).hasMessageContaining("migration id >= 1");
        byte[] extra = Arrays.copyOf(new MigrationReadRequest(1, new byte[0], 1, false).encode(), 20);
        assertThatThrownBy(() -> MigrationReadRequest.decode(extra)).isInstanceOf(ProtocolException.class);
    }

    @Test
    void aHandoverRoundTripsAndBadBodiesAreRefused() {
        LedgerHandover h = LedgerHandover.decode(new LedgerHandover(12, 345, 1_700_000_000_000_000L, "d1").encode());
        assertThat(h).isEqualTo(new LedgerHandover(12, 345, 1_700_000_000_000_000L, "d1"));
        assertThat(LedgerHandover.decode(new LedgerHandover(1, 0, 0, "d2").encode()).lastEntry()).isZero();
        assertThatThrownBy(() -> LedgerHandover.decode(java.nio.ByteBuffer.allocate(24).putLong(1).array()))
                .isInstanceOf(ProtocolException.class)
                .hasMessageContaining("writer's id")
                .satisfies(e -> assertThat(((ProtocolException) e).status()).isEqualTo(Status.MALFORMED));
        assertThatThrownBy(() -> LedgerHandover.decode(new LedgerHandover(0, 5, 0, "d1").encode()))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("ledger 0");
        assertThatThrownBy(() -> LedgerHandover.decode(new LedgerHandover(3, -1, 0, "d1").encode()))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("last entry -1");
        assertThatThrownBy(() -> new LedgerHandover(3, 1, 0, "d".repeat(300)).encode())
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("1 to 255 bytes");
    }

    private static LogRecord record(long lsn) {
        return new LogRecord(2, 5, lsn, LogRecord.PUT, Keys.utf8("k" + lsn), Keys.utf8("v" + lsn));
    }

    @Test
    void aHandoverCarriesItsTailAndATailThatIsNotTheLedgersEndIsRefused() {
        LedgerHandover h = LedgerHandover.decode(new LedgerHandover(12, 9, 7, "d1", List.of(record(7), record(8),
                record(9))).encode());
        assertThat(h.tail()).extracting(LogRecord::lsn).containsExactly(7L, 8L, 9L);
        assertThat(h.tail().get(2).value()).isEqualTo(Keys.utf8("v9"));
        assertThat(h.writer()).isEqualTo("d1");
        assertThatThrownBy(() -> LedgerHandover.decode(new LedgerHandover(12, 10, 7, "d1", List.of(record(8),
                record(9))).encode())).isInstanceOf(ProtocolException.class).hasMessageContaining("not at its last");
        assertThatThrownBy(() -> LedgerHandover.decode(new LedgerHandover(12, 9, 7, "d1", List.of(record(7),
                record(9))).encode())).isInstanceOf(ProtocolException.class).hasMessageContaining("consecutive");
        byte[] body = new LedgerHandover(12, 9, 7, "d1", List.of(record(9))).encode();
        body[body.length - record(9).encodedSize() - 1] = 2; // the count says two
        assertThatThrownBy(() -> LedgerHandover.decode(body)).isInstanceOf(ProtocolException.class)
                .hasMessageContaining("does not fit");
        byte[] flipped = new LedgerHandover(12, 9, 7, "d1", List.of(record(9))).encode();
        flipped[flipped.length - 6] ^= 1;
        assertThatThrownBy(() -> LedgerHandover.decode(flipped)).isInstanceOf(ProtocolException.class)
                .hasMessageContaining("CRC32C");
    }
}
