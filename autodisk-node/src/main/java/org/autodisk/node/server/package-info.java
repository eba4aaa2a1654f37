/** The node's Netty server: pipeline of framing, handshake and request dispatch handlers. */
package org.autodisk.node.server;
