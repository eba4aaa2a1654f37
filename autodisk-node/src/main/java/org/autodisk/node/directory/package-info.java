/** The directory: where a key's request goes from this node, kept up to date from the committed metadata. */
package org.autodisk.node.directory;
