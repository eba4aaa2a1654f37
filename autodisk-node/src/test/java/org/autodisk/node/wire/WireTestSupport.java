package org.autodisk.node.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.autodisk.core.protocol.ProtocolException;
import org.autodisk.core.protocol.Status;

/** Helpers for the peer protocol's codec tests. */
final class WireTestSupport {

    private WireTestSupport() {
    }

    static void assertMalformed(ThrowingCallable call, String... messageParts) {
        assertThatThrownBy(call).isInstanceOfSatisfying(ProtocolException.class, e -> {
            assertThat(e.status()).isEqualTo(Status.MALFORMED);
            assertThat(e.getMessage()).contains(messageParts);
        });
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
