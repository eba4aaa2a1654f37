package org.autodisk.node.meta;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What a cluster's creation records, and how a later configuration that disagrees with it is told. */
class MetaBootstrapTest {

    private static final List<String> DATA = List.of("d1", "d2");
    private static final List<Member> MEMBERS = List.of(new Member("d1", "data", "h1:1", MemberState.UP),
            new Member("d2", "data", "h2:1", MemberState.UP));

    private static MetaCommand.Bootstrap fatBtree(int fanout) {
        return MetaBootstrap.command("fat-btree", fanout, MEMBERS, DATA, List.of(), id -> List.of());
    }

    private static MetaState created(MetaCommand.Bootstrap b) {
        return MetaTransitions.apply(MetaState.EMPTY, 1, b).state();
    }

    @Test
    void theFatBtreesFanoutIsRecordedAtCreationAndSurvivesASnapshot() {
        MetaState s = created(fatBtree(3));
        assertThat(s.created().fanout()).isEqualTo(3);
        assertThat(MetaCodec.read(MetaCodec.write(s), MetaState.class).created().fanout()).isEqualTo(3);
        assertThat(created(MetaBootstrap.command("range", MEMBERS, DATA, List.of(), id -> List.of())).created()
                .fanout()).as("the range map has none").isZero();
    }

    @Test
    void aCreationStoredBeforeTheFanoutWasRecordedReadsAsNone() {
        String json = "{\"dataNodes\":[\"d1\",\"d2\"],\"splitPoints\":[]}";
        MetaState.Creation c = MetaCodec.read(json.getBytes(StandardCharsets.UTF_8), MetaState.Creation.class);
        assertThat(c.fanout()).isZero();
        assertThat(c.dataNodes()).containsExactly("d1", "d2");
    }

    @Test
    void aConfigurationWithAnotherFanoutIsToldTheCreatedOne() {
        MetaState s = created(fatBtree(3));
        assertThat(MetaBootstrap.differences(s, fatBtree(64)))
                .containsExactly("directory.fanout: created with 3, configured 64");
        assertThat(MetaBootstrap.differences(s, fatBtree(3))).isEmpty();
        MetaState unrecorded = created(fatBtree(0));
        assertThat(MetaBootstrap.differences(unrecorded, fatBtree(64))).as("nothing recorded to differ from")
                .isEmpty();
    }
}
