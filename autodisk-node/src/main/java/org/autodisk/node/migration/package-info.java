/** Moving a range between data nodes: the source's snapshot stream, the target's copy, catch-up and cutover. */
package org.autodisk.node.migration;
