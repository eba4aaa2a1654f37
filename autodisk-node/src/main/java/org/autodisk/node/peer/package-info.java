/** Node-to-node request channels: the {@code PeerChannel} interface with Netty and in-memory implementations. */
package org.autodisk.node.peer;
