/** The data node's side of the write-ahead log: shipping records to log nodes, and replay on recovery. */
package org.autodisk.node.shipping;
