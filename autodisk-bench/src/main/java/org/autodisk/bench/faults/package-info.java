/**
 * The fault-injection suite: client workers read and write single keys while a seeded nemesis kills, pauses and
 * restarts nodes of a local cluster, and a checker verifies the recorded history (Jepsen's register tests).
 */
package org.autodisk.bench.faults;
