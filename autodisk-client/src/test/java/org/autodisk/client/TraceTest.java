package org.autodisk.client;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Optional;
import org.autodisk.core.Keys;
import org.autodisk.core.protocol.TraceHop;
import org.junit.jupiter.api.Test;

class TraceTest extends FakeNodeTest {

    @Override
    protected String nodeId() {
        return "entry-node";
    }

    @Test
    void tracedInsertReturnsTheHopsOwnerFirst() {
        Traced<Void> traced = client.async().insertTraced(Keys.utf8("k"), Keys.utf8("v")).join();

        assertThat(traced.value()).isNull();
        assertThat(traced.hops()).extracting(TraceHop::nodeId).containsExactly(FakeNode.OWNER, "entry-node");
        assertThat(traced.hops()).extracting(TraceHop::action).containsExactly("store", "forward");
        assertThat(traced.hops().get(0).nanos("queue")).isEqualTo(10L);
        assertThat(traced.hops().get(1).nanos("forward")).isEqualTo(20L);
        assertThat(node.contents()).containsEntry("k", "v");
    }

    @Test
    void tracedSearchParsesThePayloadBeforeTheTrailer() {
        node.put("k", "value");

        Traced<Optional<byte[]>> traced = client.async().searchTraced(Keys.utf8("k")).join();

        assertThat(traced.value().map(String::new)).contains("value");
        assertThat(traced.hops()).hasSize(2);
        assertThat(client.async().searchTraced(Keys.utf8("missing")).join().value()).isEmpty();
    }
}
