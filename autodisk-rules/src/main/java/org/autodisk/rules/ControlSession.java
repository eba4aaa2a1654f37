package org.autodisk.rules;

import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.kie.api.KieBase;
import org.kie.api.runtime.rule.FactHandle;

/**
 * The one session for control events (load, suspicion, backlog...): guarded by its own lock, it keeps the
 * latest {@link LoadReport} of every node as facts so the load rules can compare nodes.
 */
final class ControlSession {

    private final RuleConfig config;
    private final NodeActions actions;
    private final Map<String, LoadReport> reports = new LinkedHashMap<>();
    private final Map<String, FactHandle> handles = new HashMap<>();
    private RuleSession session;

    ControlSession(KieBase base, RuleConfig config, NodeActions actions) {
        this.config = config;
        this.actions = actions;
        this.session = new RuleSession(base, config, actions);
    }

    synchronized Evaluation fire(Object event) {
        if (event instanceof LoadReport report) {
            FactHandle old = handles.remove(report.nodeId());
            if (old != null) {
                session.retract(old);
            }
            reports.put(report.nodeId(), report);
            handles.put(report.nodeId(), session.insert(report));
            return Evaluation.ok(Decision.NONE, session.fireAll());
        }
        return session.fire(event);
    }

    /** Starts over on a new rule base (after a reload or a failure), keeping the latest load reports. */
    synchronized void renew(KieBase base) {
        session.dispose();
        session = new RuleSession(base, config, actions);
        handles.clear();
        reports.forEach((node, report) -> handles.put(node, session.insert(report)));
    }

    synchronized Map<String, LoadReport> reports() {
        return Map.copyOf(reports);
    }

    synchronized void dispose() {
        session.dispose();
    }
}
