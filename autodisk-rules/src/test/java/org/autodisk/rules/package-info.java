/** Tests and the JMH benchmark of the ECA rule engine. */
package org.autodisk.rules;
