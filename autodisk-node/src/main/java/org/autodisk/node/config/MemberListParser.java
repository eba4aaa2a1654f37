package org.autodisk.node.config;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.autodisk.core.config.ConfigException;

/** Parses {@code cluster.nodes}: YAML maps {@code {id, role, address}} or strings {@code id=role@host:port}. */
final class MemberListParser {

    private MemberListParser() {
    }

    static List<ClusterMember> parse(List<?> raw, String source) {
        List<ClusterMember> members = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (Object item : raw) {
            ClusterMember m = item instanceof Map<?, ?> map ? fromMap(map, source) : fromString(String.valueOf(item));
            if (!ids.add(m.id())) {
                throw new ConfigException("cluster.nodes of " + source + " lists node '" + m.id() + "' twice");
            }
            members.add(m);
        }
        if (members.isEmpty()) {
            throw new ConfigException("cluster.nodes of " + source + " is empty");
        }
        return List.copyOf(members);
    }

    private static ClusterMember fromMap(Map<?, ?> map, String source) {
        Object id = map.get("id");
        Object address = map.get("address");
        if (id == null || address == null) {
            throw new ConfigException("cluster.nodes entry " + map + " in " + source + " needs id and address");
        }
        Object role = map.get("role");
        return new ClusterMember(String.valueOf(id), ClusterMember.Role.parse(role == null ? "data" : role.toString()),
                ClusterMember.parseAddress(String.valueOf(address)));
    }

    private static ClusterMember fromString(String text) {
        int eq = text.indexOf('=');
        int at = text.indexOf('@');
        if (eq <= 0 || at < eq) {
            throw new ConfigException("cluster.nodes entry '" + text + "' is not id=role@host:port");
        }
        return new ClusterMember(text.substring(0, eq), ClusterMember.Role.parse(text.substring(eq + 1, at)),
                ClusterMember.parseAddress(text.substring(at + 1)));
    }
}
