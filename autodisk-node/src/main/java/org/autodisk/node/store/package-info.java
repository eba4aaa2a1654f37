/** The node's local stream store: the {@code LocalStore} interface with RocksDB and in-memory implementations. */
package org.autodisk.node.store;
