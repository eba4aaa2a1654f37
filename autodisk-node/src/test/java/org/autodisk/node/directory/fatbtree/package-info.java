/** Tests of the Fat-Btree's pages, structure changes and routing. */
package org.autodisk.node.directory.fatbtree;
