/** Tests of typed configuration keys and the effective configuration. */
package org.autodisk.core.config;
