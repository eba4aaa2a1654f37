/** Tests of the node's config package. */
package org.autodisk.node.config;
