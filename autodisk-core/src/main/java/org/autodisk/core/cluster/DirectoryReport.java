package org.autodisk.core.cluster;

import java.util.List;
import java.util.Objects;

/**
 * The directory as every data node holds it, as {@code directory} prints it: under the Fat-Btree, each node's copies
 * of index pages (level, fence keys, copy set) and the leaves its copies name it the owner of; under the range map,
 * no index pages and each node's own ranges.
 *
 * @param reportedBy the node that gathered it
 * @param kind       the directory kind the cluster was created with ({@code range} or {@code fat-btree})
 * @param version    the metadata version of the gathering node
 * @param levels     the height of the tree (the root's level), 0 for the range map
 * @param indexPages the distinct index pages of the tree, each counted once however many nodes hold a copy
 * @param nodes      every data node, in configuration order; a node that did not answer has {@code error} set
 * @param fanout     the most entries of an index page, as the cluster was created with it; 0 under the range map,
 *                   from an older node, or in a cluster created before the metadata recorded it
 */
public record DirectoryReport(String reportedBy, String kind, long version, int levels, int indexPages,
        List<NodeIndex> nodes, int fanout) {

    /** Copies the list. */
    public DirectoryReport {
        nodes = List.copyOf(nodes);
    }

    /**
     * A report without a recorded fanout.
     *
     * @param reportedBy the node that gathered it
     * @param kind       the directory kind
     * @param version    the metadata version
     * @param levels     the height of the tree
     * @param indexPages the distinct index pages
     * @param nodes      every data node
     */
    public DirectoryReport(String reportedBy, String kind, long version, int levels, int indexPages,
            List<NodeIndex> nodes) {
        this(reportedBy, kind, version, levels, indexPages, nodes, 0);
    }

    /**
     * What one data node holds.
     *
     * @param id         the node
     * @param kind       the directory this node runs
     * @param indexPages the index page copies it holds
     * @param leaves     the leaves it owns as its copies have them (its own ranges under the range map)
     * @param pages      its copies, root first then by level and low key
     * @param leafLows   the low key of each leaf it owns, rendered, in key order
     * @param error      why the node did not answer, {@code null} when it did
     */
    public record NodeIndex(String id, String kind, int indexPages, int leaves, List<IndexPage> pages,
            List<String> leafLows, String error) {

        /** Copies the lists; treats missing ones as empty. */
        public NodeIndex {
            Objects.requireNonNull(id, "id");
            pages = pages == null ? List.of() : List.copyOf(pages);
            leafLows = leafLows == null ? List.of() : List.copyOf(leafLows);
        }

        /**
         * Encodes as JSON (one node's part, node to node).
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
         * @return one node's part
         */
        public static NodeIndex fromJson(byte[] json) {
            return ClusterStatus.read(json, NodeIndex.class);
        }
    }

    /**
     * One copy of an index page.
     *
     * @param id      the page id (the same on every copy)
     * @param level   1 for a page above leaves, higher towards the root
     * @param low     its low fence key, rendered
     * @param high    its high fence key, rendered, {@code null} for the end of the key space
     * @param entries its entries
     * @param copySet the nodes holding a copy
     * @param version the copy's version
     * @param digest  a checksum of the entries (low keys, children, copy sets), equal on equal copies; {@code null}
     *                from a node that does not send one
     */
    public record IndexPage(long id, int level, String low, String high, int entries, List<String> copySet,
            long version, String digest) {

        /** Copies the list. */
        public IndexPage {
            copySet = List.copyOf(copySet);
        }

        /**
         * A copy described without a digest of its entries.
         *
         * @param id      the page id
         * @param level   its level
         * @param low     its low fence key, rendered
         * @param high    its high fence key, rendered, {@code null} for the end of the key space
         * @param entries its entries
         * @param copySet the nodes holding a copy
         * @param version the copy's version
         */
        public IndexPage(long id, int level, String low, String high, int entries, List<String> copySet,
                long version) {
            this(id, level, low, high, entries, copySet, version, null);
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
     * @return the report
     */
    public static DirectoryReport fromJson(byte[] json) {
        return ClusterStatus.read(json, DirectoryReport.class);
    }
}
