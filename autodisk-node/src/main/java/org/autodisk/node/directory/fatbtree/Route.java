package org.autodisk.node.directory.fatbtree;

/**
 * Where one node's descent for a key ended.
 *
 * @param servedHere whether this node owns the leaf holding the key
 * @param leaf       the leaf's range id when this node holds the page above it, else -1
 * @param nextHop    the node to forward to ({@code null} when served here): the leaf's owner, or a node holding the
 *                   next page down
 * @param pagesRead  the index pages this node read
 * @param restarts   the descents restarted from the root because a fence key did not cover the key
 */
record Route(boolean servedHere, long leaf, String nextHop, int pagesRead, int restarts) {
}
