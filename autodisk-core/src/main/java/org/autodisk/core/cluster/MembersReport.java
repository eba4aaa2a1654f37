package org.autodisk.core.cluster;

import java.util.List;

/**
 * Every member of the cluster, as {@code members} prints them.
 *
 * @param reportedBy the node that gathered it
 * @param version    the metadata version the members come from
 * @param leader     the metadata leader as the reporting node knows it, or {@code null} if none is known
 * @param members    every member, in configuration order
 * @param metadataGroup the metadata's Raft group as the reporting node's replica has it: {@code id=voter@host:port}
 *                   or {@code id=listener@host:port} per replica (empty from an older node); a joining node
 *                   changes exactly this configuration
 * @param directory  the directory the cluster was created with ({@code range} or {@code fat-btree}; {@code null}
 *                   from an older node or before the cluster was created), which a joining node runs
 * @param directoryFanout the most entries in a Fat-Btree index page, as the cluster was created with it (or, if its
 *                   metadata did not record it, as the reporting node runs it; 0 under the range map or from an older
 *                   node), which a joining node takes
 */
public record MembersReport(String reportedBy, long version, String leader, List<MemberStatus> members,
        List<String> metadataGroup, String directory, int directoryFanout) {

    /** Copies the lists. */
    public MembersReport {
        members = List.copyOf(members);
        metadataGroup = metadataGroup == null ? List.of() : List.copyOf(metadataGroup);
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
     * @return the report
     */
    public static MembersReport fromJson(byte[] json) {
        return ClusterStatus.read(json, MembersReport.class);
    }
}
