package org.autodisk.core.protocol;

import java.util.List;

/**
 * One page of a traverse.
 *
 * @param entries   streams in key order
 * @param resumeKey if not {@code null}, the page was cut by the response size budget and the traverse goes on
 *                  from this key (inclusive)
 */
public record TraverseResult(List<KeyValue> entries, byte[] resumeKey) {
}
