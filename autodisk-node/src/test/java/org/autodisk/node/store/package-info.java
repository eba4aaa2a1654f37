/** Tests of the node's store package. */
package org.autodisk.node.store;
