/** The ECA rule engine: event facts, the actions nodes implement, and the shipped rule files. */
package org.autodisk.rules;
