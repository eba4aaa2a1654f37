/** Tests of the data node's log shipping. */
package org.autodisk.node.shipping;
