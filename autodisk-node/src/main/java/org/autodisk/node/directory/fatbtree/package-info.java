/**
 * The Fat-Btree: index pages above range leaves, each copied only to the nodes that own a leaf beneath it, with the
 * structure changes that keep every copy equal and the routing that forwards where a child is not held here.
 */
package org.autodisk.node.directory.fatbtree;
