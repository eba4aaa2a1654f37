package org.autodisk.core.cluster;

import java.util.List;

/**
 * The outcome of a cluster-wide rules reload: every node compiled its rules directory first; only when all of
 * them compiled did every node switch to the new rules.
 *
 * @param coordinator the node that ran the reload
 * @param installed   whether the new rules are in force on every node (false: every node kept its old rules)
 * @param nodes       what each node said, in member order
 */
public record RulesReload(String coordinator, boolean installed, List<NodeReload> nodes) {

    /** Copies the list. */
    public RulesReload {
        nodes = List.copyOf(nodes);
    }

    /**
     * One node's part of a reload.
     *
     * @param id       the node
     * @param reachable whether it answered
     * @param files    how many rule files it compiled (shipped and from its rules directory)
     * @param errors   its compilation errors as {@code file:line: message}, or why it could not take part
     */
    public record NodeReload(String id, boolean reachable, int files, List<String> errors) {

        /** Copies the list. */
        public NodeReload {
            errors = List.copyOf(errors);
        }
    }

    /**
     * Encodes as JSON.
     *
     * @return UTF-8 JSON
     */
    public byte[] toJson() {
        return ClusterStatus.write(this);
    }

    /**
     * Decodes from JSON.
     *
     * @param json UTF-8 JSON
     * @return the outcome
     */
    public static RulesReload fromJson(byte[] json) {
        return ClusterStatus.read(json, RulesReload.class);
    }
}
