package org.autodisk.core.cluster;

import java.util.List;

/**
 * One balance round, as {@code balance} prints it: the facts the balance rules saw and the migrations they
 * proposed, with what became of each.
 *
 * @param reportedBy the node that gathered the facts and evaluated the rules
 * @param version    the metadata version the facts come from
 * @param dryRun     whether the proposals were only shown (true) or started
 * @param migrationsUnderWay migrations already under way when the round ran
 * @param averageBytes the average bytes of the data nodes whose figures are known
 * @param nodes      every data node's share
 * @param proposals  what the rules would move, and why
 */
public record BalanceReport(String reportedBy, long version, boolean dryRun, int migrationsUnderWay,
        long averageBytes, List<Node> nodes, List<Proposal> proposals) {

    /** Copies the lists. */
    public BalanceReport {
        nodes = List.copyOf(nodes);
        proposals = List.copyOf(proposals);
    }

    /**
     * One data node's share.
     *
     * @param id                the node
     * @param state             its member state
     * @param ranges            ranges it owns
     * @param keys              streams in them (-1: unknown)
     * @param bytes             their bytes (-1: unknown)
     * @param requestsPerSecond requests served per second (-1: unknown)
     * @param diskUsedPercent   how full the disk of its data directory is, in percent ({@code null} or -1: unknown,
     *                          e.g. from a node of an older build)
     */
    public record Node(String id, String state, int ranges, long keys, long bytes, double requestsPerSecond,
            Double diskUsedPercent) {
    }

    /**
     * A move the rules proposed.
     *
     * @param rangeId     the range
     * @param span        its span
     * @param from        its owner
     * @param to          the data node it should move to
     * @param reason      why, as the rule put it
     * @param outcome     {@code proposed} (dry run), {@code started}, or why it was not started
     * @param migrationId the migration started, or -1
     */
    public record Proposal(int rangeId, String span, String from, String to, String reason, String outcome,
            long migrationId) {
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
    public static BalanceReport fromJson(byte[] json) {
        return ClusterStatus.read(json, BalanceReport.class);
    }
}
