/** Request handling: one handler class per operation, routing and forwarding, replies and traces. */
package org.autodisk.node.ops;
