package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.autodisk.core.protocol.ProtocolException;
import org.junit.jupiter.api.Test;

/** Page batches on the wire: real batches round trip; cut, padded and random bodies get MALFORMED, nothing else. */
class PageBatchCodecTest {

    private final List<PageBatch> batches = new ArrayList<>();

    PageBatchCodecTest() {
        PageCluster c = Trees.cluster(Layout.FAT_BTREE, 8, 2, 4);
        c.channel().tap(batches::add);
        Random rnd = new Random(9);
        Trees.splitsAndMoves(c, rnd, 300, 4);
    }

    @Test
    void batchesOfRealChangesRoundTrip() {
        assertThat(batches).hasSizeGreaterThan(100);
        assertThat(batches).anyMatch(b -> !b.drops().isEmpty()).anyMatch(b -> b.root() >= 0);
        for (PageBatch batch : batches) {
            PageBatch back = PageBatchCodec.decode(PageBatchCodec.encode(batch));
            assertThat(back.change()).isEqualTo(batch.change());
            assertThat(back.root()).isEqualTo(batch.root());
            assertThat(back.drops()).isEqualTo(batch.drops());
            assertThat(back.puts()).hasSameSizeAs(batch.puts());
            for (int i = 0; i < batch.puts().size(); i++) {
                assertThat(back.puts().get(i).sameAs(batch.puts().get(i))).isTrue();
            }
        }
    }

    @Test
    void everyCutAndAPaddedBodyAreMalformed() {
        byte[] body = PageBatchCodec.encode(batches.stream().filter(b -> b.puts().size() > 1).findFirst()
                .orElseThrow());
        for (int len = 0; len < body.length; len++) {
            byte[] cut = Arrays.copyOf(body, len);
            assertThatThrownBy(() -> PageBatchCodec.decode(cut)).isInstanceOf(ProtocolException.class)
                    .hasMessageContaining("malformed");
        }
        assertThatThrownBy(() -> PageBatchCodec.decode(Arrays.copyOf(body, body.length + 1)))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("1 bytes after the last drop");
    }

    @Test
    void impossibleValuesAreNamed() {
        Page page = new Page(5, 1, new byte[0], null, List.of(new Entry(new byte[0], 1, List.of("d001"))), 1);
        byte[] body = PageBatchCodec.encode(new PageBatch(2, List.of(page), List.of(), -1));
        int levelAt = 8 + 8 + 2 + 1 + 4 + 4 + 8;
        body[levelAt] = 0;
        assertThatThrownBy(() -> PageBatchCodec.decode(body)).hasMessageContaining("level 0");
        body[levelAt] = 1;
        ByteBuffer.wrap(body).putShort(body.length - 4 - 2, (short) 7);
        assertThatThrownBy(() -> PageBatchCodec.decode(body)).hasMessageContaining("names node 7 of a table of 1");
    }

    @Test
    void randomBodiesDecodeOrAreMalformedAndNeverThrowAnythingElse() {
        Random rnd = new Random(1);
        for (int i = 0; i < 20_000; i++) {
            byte[] junk = new byte[rnd.nextInt(80)];
            rnd.nextBytes(junk);
            try {
                PageBatchCodec.decode(junk);
            } catch (ProtocolException expected) {
                assertThat(expected).hasMessageContaining("malformed");
            }
        }
    }
}
