/** The log node: its log store and backup catch-up, and the log operations it serves. */
package org.autodisk.node.lognode;
