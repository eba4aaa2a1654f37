/** Tests of the node-to-node protocol's codecs and the node handshake's proofs. */
package org.autodisk.node.wire;
