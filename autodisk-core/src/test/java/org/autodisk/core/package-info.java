/** Tests of the key helpers and size limits. */
package org.autodisk.core;
