package org.autodisk.node.directory.fatbtree;

/**
 * Where one node's descent for a key ended.
 *
 * @param servedHere whether this node owns the leaf holding the key
 * @param leaf       the leaf's range id when this node holds the page above it, else -1
 * @param nextHop    the node to forward to ({@code null} when served here): the leaf's owner, or a node holding the
 *                   next page down
 * @param pagesRead  the index pages this node read (restarted descents included)
 */
record Route(boolean servedHere, long leaf, String nextHop, int pagesRead) {
}
