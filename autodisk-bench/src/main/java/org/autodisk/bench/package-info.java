/** {@code autodisk bench ...}: cost measurements on local clusters, with CSV files, Markdown reports and charts. */
package org.autodisk.bench;
