package org.autodisk.node.rules;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.autodisk.core.config.ConfigException;
import org.autodisk.node.config.NodeConfig;
import org.autodisk.node.config.NodeConfigKeys;
import org.autodisk.node.metrics.NodeMetrics;
import org.autodisk.rules.BacklogReport;
import org.autodisk.rules.ClusterLoad;
import org.autodisk.rules.Evaluation;
import org.autodisk.rules.LoadReport;
import org.autodisk.rules.NodeFailed;
import org.autodisk.rules.NodeSuspected;
import org.autodisk.rules.RangeStats;
import org.autodisk.rules.RequestEvent;
import org.autodisk.rules.RuleCompilationException;
import org.autodisk.rules.RuleEngine;
import org.autodisk.rules.RuleError;
import org.autodisk.rules.RuleSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A node's ECA rules: the Drools engine over the shipped rule files (unless {@code rules.shipped} is false) and
 * the files of {@code rules.dir}, with the node's actions and settings. Requests are decided on the calling
 * worker's own session; control events (backlog, load, suspicion) go to the engine's control session.
 */
public final class NodeRules implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(NodeRules.class);
    private static final long SUSPECT_INTERVAL_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final boolean shipped;
    private final Path dir;
    private final NodeMetrics metrics;
    private final NodeRuleActions actions;
    private final RuleEngine engine;
    private final double maxDiskUsedPercent;
    private final Map<String, Long> lastSuspected = new ConcurrentHashMap<>();

    private NodeRules(NodeConfig config, NodeMetrics metrics, NodeRuleActions actions, RuleEngine engine) {
        this.shipped = config.get(NodeConfigKeys.RULES_SHIPPED);
        this.dir = config.rulesDir();
        this.metrics = metrics;
        this.actions = actions;
        this.engine = engine;
        this.maxDiskUsedPercent = config.ruleConfig().balanceMaxDiskUsedPercent();
    }

    /**
     * Compiles the node's rules.
     *
     * @param config  the node's configuration
     * @param metrics where rule times, failures and alerts are counted
     * @return the rules
     * @throws ConfigException when a rule file does not compile (naming file and line) or cannot be read
     */
    public static NodeRules start(NodeConfig config, NodeMetrics metrics) {
        String id = config.nodeId();
        List<RuleSource> sources = sources(config.get(NodeConfigKeys.RULES_SHIPPED), config.rulesDir());
        RuleEngine.Prepared prepared = RuleEngine.prepare(sources);
        if (!prepared.errors().isEmpty()) {
            throw new ConfigException("node " + id + ": the rules do not compile (rules.dir = " + config.rulesDir()
                    + "):\n  " + prepared.errors().stream().map(RuleError::toString)
                    .collect(Collectors.joining("\n  ")));
        }
        NodeRuleActions actions = new NodeRuleActions(id, metrics,
                config.get(NodeConfigKeys.RULES_ALERT_INTERVAL_MS));
        RuleEngine engine;
        try {
            engine = RuleEngine.create(prepared, config.ruleConfig(), actions, id);
        } catch (RuleCompilationException e) {
            throw new ConfigException("node " + id + ": " + e.getMessage());
        }
        LOG.info("{}: rules in force: {}", id, sources.stream().map(RuleSource::origin).toList());
        return new NodeRules(config, metrics, actions, engine);
    }

    /**
     * Lists the rule files a node loads.
     *
     * @param shipped whether the shipped files load
     * @param dir     the user rules directory, or null
     * @return the sources, a user file replacing a shipped one of the same name
     * @throws ConfigException when the directory is missing or unreadable, or no file is left
     */
    public static List<RuleSource> sources(boolean shipped, Path dir) {
        if (dir != null && !Files.isDirectory(dir)) {
            throw new ConfigException("rules.dir " + dir + " is not a directory");
        }
        try {
            List<RuleSource> sources = shipped ? RuleSource.shippedAnd(dir)
                    : dir == null ? List.of() : RuleSource.directory(dir);
            if (sources.isEmpty()) {
                throw new ConfigException("no rule files: rules.shipped is false and rules.dir " + dir
                        + " holds no .drl file, so nothing would decide requests");
            }
            return sources;
        } catch (IOException e) {
            throw new ConfigException("cannot read rules.dir " + dir + ": " + e.getMessage());
        }
    }

    /**
     * Decides one request; the caller times it (for its trace and {@link NodeMetrics#ruleTime}).
     *
     * @param event the request event
     * @return the evaluation; a failure is counted and logged by the engine with the rule's name
     */
    public Evaluation decide(RequestEvent event) {
        Evaluation evaluation = engine.evaluate(event);
        if (evaluation.isFailure()) {
            metrics.ruleFailure();
        }
        return evaluation;
    }

    /**
     * Evaluates a control event (load report, idle, migration finished...).
     *
     * @param event the event
     */
    public void observe(Object event) {
        if (engine.evaluate(event).isFailure()) {
            metrics.ruleFailure();
        }
    }

    /**
     * Reports a range's backup backlog to the rules and tells whether they asked to catch its backup up.
     *
     * @param report the backlog
     * @return true when a rule called {@code actions.catchUp(stream)}
     */
    public boolean catchUpRequested(BacklogReport report) {
        actions.takeCatchUp(report.stream());
        observe(report);
        return actions.takeCatchUp(report.stream());
    }

    /**
     * Reports what a range holds to the rules and tells whether they asked to split it.
     *
     * @param stats the range's figures
     * @return true when a rule called {@code actions.split(rangeId)}
     */
    public boolean splitRequested(RangeStats stats) {
        actions.takeSplit(stats.rangeId());
        observe(stats);
        return actions.takeSplit(stats.rangeId());
    }

    /**
     * Returns how full a data node's disk may be after taking a range ({@code balance.max-disk-used-percent}), which
     * the balancer checks again for each proposal it starts, whatever the rules in force.
     *
     * @return the percentage
     */
    public double maxDiskUsedPercent() {
        return maxDiskUsedPercent;
    }

    /**
     * Evaluates one balance round and returns the migrations the rules propose on it.
     *
     * @param load the round's facts
     * @return the proposals, in the order the rules made them
     */
    public List<MigrationProposal> balance(ClusterLoad load) {
        return actions.collect(() -> observe(load));
    }

    /**
     * Evaluates a failed node's event ({@code failover.drl}) and returns what the rules ask for it.
     *
     * @param failed the event
     * @return the rules' decision
     */
    public FailoverDecision failover(NodeFailed failed) {
        return actions.collectFailover(() -> observe(failed));
    }

    /**
     * Returns the migrations rules proposed on other events (not a balance round) since the last call.
     *
     * @return the proposals, oldest first
     */
    public List<MigrationProposal> pendingMigrations() {
        return actions.takePending();
    }

    /**
     * Returns the latest load report of every data node this node's load reports saw.
     *
     * @return the reports by node id (empty on a log node)
     */
    public Map<String, LoadReport> loadReports() {
        return engine.loadReports();
    }

    /**
     * Tells the rules that a node seems to have failed (at most once a second per node).
     *
     * @param node   the node
     * @param reason what failed
     */
    public void suspect(String node, String reason) {
        long now = System.nanoTime();
        Long last = lastSuspected.get(node);
        if (last != null && now - last < SUSPECT_INTERVAL_NANOS) {
            return;
        }
        lastSuspected.put(node, now);
        observe(new NodeSuspected(node, reason));
    }

    /**
     * Compiles the rule files as they are now, without installing them (first phase of a reload).
     *
     * @return the compiled rules or their errors
     */
    public RuleEngine.Prepared prepare() {
        try {
            return RuleEngine.prepare(sources(shipped, dir));
        } catch (ConfigException e) {
            return RuleEngine.Prepared.failed(new RuleError(String.valueOf(dir), 0, e.getMessage()));
        }
    }

    /**
     * Installs rules compiled by {@link #prepare()}.
     *
     * @param prepared rules without errors
     */
    public void install(RuleEngine.Prepared prepared) {
        engine.install(prepared);
    }

    /**
     * Returns how often each rule failed.
     *
     * @return failures per rule name
     */
    public Map<String, Long> failureCounts() {
        return engine.failureCounts();
    }

    @Override
    public void close() {
        engine.close();
    }

}
