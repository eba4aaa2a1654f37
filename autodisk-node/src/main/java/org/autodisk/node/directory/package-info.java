/** The directory: which node owns a key now, at which epoch, and where a request goes next. */
package org.autodisk.node.directory;
