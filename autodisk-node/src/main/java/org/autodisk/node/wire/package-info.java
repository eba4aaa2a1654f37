/** The node-to-node protocol: peer opcodes, their bodies and the node handshake; clients never see it. */
package org.autodisk.node.wire;
