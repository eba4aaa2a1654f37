package org.autodisk.core.cluster;

import java.util.List;

/**
 * Every member of the cluster, as {@code members} prints them.
 *
 * @param reportedBy the node that gathered it
 * @param version    the metadata version the members come from
 * @param leader     the metadata leader as the reporting node knows it, or {@code null} if none is known
 * @param members    every member, in configuration order
 */
public record MembersReport(String reportedBy, long version, String leader, List<MemberStatus> members) {

    /** Copies the list. */
    public MembersReport {
        members = List.copyOf(members);
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
