/** Tests of a data node's own request handling parts. */
package org.autodisk.node.data;
