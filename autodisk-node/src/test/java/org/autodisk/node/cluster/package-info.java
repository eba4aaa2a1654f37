/** Tests of the node's cluster package. */
package org.autodisk.node.cluster;
