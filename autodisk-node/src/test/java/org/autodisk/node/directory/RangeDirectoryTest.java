package org.autodisk.node.directory;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.autodisk.core.Keys;
import org.autodisk.node.meta.InMemoryMetadataGroup;
import org.autodisk.node.meta.MetaBootstrap;
import org.autodisk.node.meta.MetaCommand;
import org.autodisk.node.meta.MetaState;
import org.autodisk.node.meta.MetaTransitions;
import org.autodisk.node.meta.Member;
import org.autodisk.node.meta.MemberState;
import org.junit.jupiter.api.Test;

/** The range-partitioned directory against the directory contract. */
class RangeDirectoryTest extends DirectoryContract {

    @Override
    Nodes create(InMemoryMetadataGroup group, List<String> nodes) {
        Map<String, Directory> all = new LinkedHashMap<>();
        nodes.forEach(n -> {
            all.put(n, Directory.range(n));
            all.get(n).follow(group.member(n));
        });
        return Nodes.of(all::get, () -> true, () -> all.values().forEach(Directory::close));
    }

    @Test
    void ignoresAnOlderStateThanItHas() {
        List<Member> members = NODES.stream().map(id -> new Member(id, "data", id + ":7400", MemberState.UP)).toList();
        MetaState v1 = MetaTransitions.apply(MetaState.EMPTY, 1, MetaBootstrap.command("range", members, NODES,
                List.of(Keys.utf8("m")), id -> List.of())).state();
        MetaState v2 = MetaTransitions.apply(v1, 2, new MetaCommand.Split(0, 1, Keys.utf8("f"))).state();
        Directory d = Directory.range("d1");
        d.apply(v2);
        d.apply(v1);
        assertThat(d.version()).isEqualTo(2);
        assertThat(d.locate(Keys.utf8("g")).range().id()).isEqualTo(2);
    }
}
