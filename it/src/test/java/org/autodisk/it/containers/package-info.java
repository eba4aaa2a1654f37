/** Container integration tests: the node image, a compose cluster and clusters of node containers. */
package org.autodisk.it.containers;
