/** Backup copies: the data node's backup stores and the log node's catch-up that fills them from the log. */
package org.autodisk.node.backup;
