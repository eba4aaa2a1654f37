package org.autodisk.node.directory.fatbtree;

import java.util.List;

/**
 * Which nodes hold a copy of an index page - the three configurations the Fat-Btree paper compares.
 */
public enum Layout {

    /**
     * A node holds a page iff the page's subtree has a leaf it owns: the root is on every node that owns a leaf (a
     * node that owns none, as one that joined and was given no range yet, holds no page and routes by the metadata).
     */
    FAT_BTREE("fat-btree", true),

    /** Every node holds every page (today's range map is this, flat). */
    REPLICATED("replicated", false),

    /** One index node holds every page; the others hold none and send every key there. */
    SINGLE_INDEX("single-index", false);

    private final String label;
    private final boolean copySets;

    Layout(String label, boolean copySets) {
        this.label = label;
        this.copySets = copySets;
    }

    /**
     * Returns the name used in reports.
     *
     * @return e.g. {@code fat-btree}
     */
    public String label() {
        return label;
    }

    /**
     * Tells whether pages keep their children's copy sets (only the Fat-Btree needs them).
     *
     * @return true for the Fat-Btree
     */
    boolean copySets() {
        return copySets;
    }

    /**
     * Returns the nodes that hold a page.
     *
     * @param page  the page
     * @param root  whether it is the root (held by every node but under the Fat-Btree, where its copy set says)
     * @param nodes every data node, in order (the first is the single index node)
     * @return the holders
     */
    List<String> holders(Page page, boolean root, List<String> nodes) {
        return switch (this) {
            case FAT_BTREE -> page.copySet();
            case REPLICATED -> nodes;
            case SINGLE_INDEX -> List.of(nodes.get(0));
        };
    }

    /**
     * Returns the node that carries out a change of a leaf owned by {@code owner}.
     *
     * @param owner the leaf's owner
     * @param nodes every data node
     * @return the owner, or the single index node
     */
    String coordinator(String owner, List<String> nodes) {
        return this == SINGLE_INDEX ? nodes.get(0) : owner;
    }
}
