/** Node configuration: the documented keys, YAML and environment loading, and the cluster member list. */
package org.autodisk.node.config;
