/** Connections that carry requests and their responses, shared by the client and the nodes, with optional TLS. */
package org.autodisk.core.net;
