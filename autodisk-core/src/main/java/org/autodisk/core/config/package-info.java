/** Typed configuration keys, each defined once with its default, type and documentation. */
package org.autodisk.core.config;
