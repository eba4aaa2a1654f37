/** Tests of the node's directory package. */
package org.autodisk.node.directory;
