package org.autodisk.node.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.autodisk.node.meta.MetaState;
import org.junit.jupiter.api.Test;

/** The members a node knows: its configuration's, then those the metadata adds; a configured address stays. */
class LiveMembersTest {

    @Test
    void aMemberTheMetadataAddsIsKnownWithItsRecordedAddressAndTheConfiguredOnesStay() {
        ClusterMember d1 = new ClusterMember("d1", ClusterMember.Role.DATA, ClusterMember.parseAddress("h1:7400"));
        ClusterMember l1 = new ClusterMember("l1", ClusterMember.Role.LOG, ClusterMember.parseAddress("h2:7400"));
        LiveMembers live = new LiveMembers("d1", List.of(d1, l1));
        assertThat(live.contains("d4")).isFalse();
        assertThat(live.address("d4")).isNull();
        MetaState s = new MetaState(7, "range", List.of(new Member("d1", "data", "elsewhere:1", MemberState.UP),
                new Member("l1", "log", "h2:7400", MemberState.UP),
                new Member("d4", "data", "h4:7400", MemberState.JOINING)), List.of(), 0, null);
        live.apply(s);
        assertThat(live.contains("d4")).isTrue();
        assertThat(live.address("d4").getPort()).isEqualTo(7400);
        assertThat(live.address("d4").getHostString()).isEqualTo("h4");
        assertThat(live.address("d1").getHostString()).as("the configured address stays").isEqualTo("h1");
        assertThat(live.dataNodes()).containsExactly("d1", "d4");
        assertThat(live.all()).extracting(ClusterMember::id).containsExactly("d1", "l1", "d4");
    }
}
