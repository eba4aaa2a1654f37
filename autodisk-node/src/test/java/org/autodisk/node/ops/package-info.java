/** Tests of the node's ops package. */
package org.autodisk.node.ops;
