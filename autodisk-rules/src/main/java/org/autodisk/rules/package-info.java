/**
 * The ECA rule engine: event facts, the actions nodes implement, and the shipped rule files.
 *
 * <p>Vocabulary for rule authors (DRL, package {@code org.autodisk.rules}):
 * <ul>
 *   <li>Events (facts, records): requests {@link org.autodisk.rules.InsertRequested},
 *       {@link org.autodisk.rules.SearchRequested}, {@link org.autodisk.rules.DeleteRequested},
 *       {@link org.autodisk.rules.TraverseRequested} (all {@link org.autodisk.rules.RequestEvent}: requestId,
 *       key, ownerIsLocal, rangeId, hops); {@link org.autodisk.rules.LogAppended},
 *       {@link org.autodisk.rules.LogAcknowledged}, {@link org.autodisk.rules.LoadReport} (the latest per
 *       node stays in the control session), {@link org.autodisk.rules.NodeSuspected},
 *       {@link org.autodisk.rules.Idle}, {@link org.autodisk.rules.BacklogReport},
 *       {@link org.autodisk.rules.RangeStats}; migrations {@link org.autodisk.rules.MigrationStarted},
 *       {@link org.autodisk.rules.MigrationProgress}, {@link org.autodisk.rules.MigrationFinished},
 *       {@link org.autodisk.rules.MigrationFailed} (on the target); {@link org.autodisk.rules.ClusterLoad} with its
 *       {@link org.autodisk.rules.NodeLoad} and {@link org.autodisk.rules.RangeLoad} parts (one balance round).</li>
 *   <li>Globals: {@code verdict} ({@link org.autodisk.rules.Verdict}: {@code forward()},
 *       {@code handleLocally(m)}, {@code refuse(reason)}; refuse beats forward beats local, the largest m
 *       wins), {@code actions} ({@link org.autodisk.rules.NodeActions}: catchUp, split,
 *       startMigration, alert) and {@code config} ({@link org.autodisk.rules.RuleConfig}:
 *       prefixes and thresholds).</li>
 *   <li>Shipped files ({@code org/autodisk/rules/}): routing.drl, catch-up.drl, load.drl, suspect.drl, split.drl,
 *       balance.drl, failover.drl;
 *       examples/double-log.drl, examples/write-protect.drl and examples/failover-hold.drl are loaded only when
 *       copied into the user
 *       rules directory. A user file replaces a shipped file of the same name.</li>
 * </ul>
 */
package org.autodisk.rules;
