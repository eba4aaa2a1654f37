/** A node's start-up in named steps, and the release of what they opened, in reverse order, on failure or close. */
package org.autodisk.node.lifecycle;
