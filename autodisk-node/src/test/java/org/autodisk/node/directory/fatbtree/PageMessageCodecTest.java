package org.autodisk.node.directory.fatbtree;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.autodisk.core.protocol.ProtocolException;
import org.junit.jupiter.api.Test;

/**
 * Page messages on the wire (PAGE_MESSAGE bodies): every kind round trips with its sender; a cut, padded, unnamed or
 * unknown body, and random bytes, get MALFORMED saying what was found, and nothing else.
 */
class PageMessageCodecTest {

    private static final Page PAGE = new Page(5, 1, new byte[0], null, List.of(new Entry(new byte[0], 1,
            List.of("d1", "d2"))), 3);
    private static final List<PageMessage> ALL = List.of(new PageMessage.LockRequest(77, 5),
            new PageMessage.LockGranted(77), new PageMessage.Release(-1), new PageMessage.Applied(Long.MAX_VALUE),
            new PageMessage.Restarted(),
            new PageMessage.Batch(new PageBatch(77, List.of(PAGE), List.of(new PageBatch.Dropped(4, 2)), 5)));

    @Test
    void everyKindRoundTripsWithItsSender() {
        for (PageMessage m : ALL) {
            PageMessageCodec.From back = PageMessageCodec.decode(PageMessageCodec.encode("d12", m));
            assertThat(back.sender()).isEqualTo("d12");
            if (m instanceof PageMessage.Batch b) {
                PageBatch got = ((PageMessage.Batch) back.message()).batch();
                assertThat(got.change()).isEqualTo(b.batch().change());
                assertThat(got.root()).isEqualTo(5);
                assertThat(got.drops()).isEqualTo(b.batch().drops());
                assertThat(got.puts().get(0).sameAs(PAGE)).isTrue();
            } else {
                assertThat(back.message()).isEqualTo(m);
            }
        }
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
        assertThatThrownBy(() -> PageMessageCodec.decode(new byte[] {0, 1, 0, 0, 0, 0, 0, 0, 0, 1}))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("names no sender");
        assertThatThrownBy(() -> PageMessageCodec.decode(new byte[] {1, 'd', 9, 0, 0, 0, 0, 0, 0, 0, 1}))
                .isInstanceOf(ProtocolException.class).hasMessageContaining("unknown kind 9");
        assertThatThrownBy(() -> PageMessageCodec.encode("", new PageMessage.Release(1)))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void randomBytesAreMalformedOrAMessageNeverAnotherFailure() {
        Random rnd = new Random(15);
        for (int i = 0; i < 20_000; i++) {
            byte[] body = new byte[rnd.nextInt(40)];
            rnd.nextBytes(body);
            if (body.length > 1) {
                body[0] = (byte) Math.min(body.length - 1, 3);
                body[Math.min(body.length - 1, 4)] = (byte) (1 + rnd.nextInt(6));
            }
            try {
                assertThat(PageMessageCodec.decode(body).message()).isNotNull();
            } catch (ProtocolException e) {
                assertThat(e.getMessage()).contains("malformed");
            }
        }
    }
}
