/** The {@code autodisk} command line: run a node, a local cluster or the demo, use and measure a cluster. */
package org.autodisk.cli;
