/** The node's side of the ECA rules: the engine built from the configuration, the actions rules take, load reports. */
package org.autodisk.node.rules;
