/** Tests of the cluster map and its JSON form. */
package org.autodisk.core.cluster;
