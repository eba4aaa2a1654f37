/** The AutoDisk wire protocol: frames, opcodes, statuses, message bodies and the Netty codec. */
package org.autodisk.core.protocol;
