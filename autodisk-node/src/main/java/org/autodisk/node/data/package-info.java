/** The data node: its store, write-ahead log and backup copies, and the stream operations it serves. */
package org.autodisk.node.data;
