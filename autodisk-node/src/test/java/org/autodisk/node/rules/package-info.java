/** Tests of the rules in the node's request path: shipped and example rules end to end, failures, reloads. */
package org.autodisk.node.rules;
