package org.autodisk.rules;

import java.util.HashSet;
import java.util.Set;
import org.kie.api.KieBase;
import org.kie.api.definition.KiePackage;
import org.kie.api.definition.rule.Global;
import org.kie.api.runtime.KieSession;
import org.kie.api.runtime.rule.FactHandle;

/** One long-lived stateful session with its own verdict; used by one thread at a time. */
final class RuleSession {

    private final KieBase base;
    private final KieSession session;
    private final Verdict verdict = new Verdict();

    RuleSession(KieBase base, RuleConfig config, NodeActions actions) {
        this.base = base;
        this.session = base.newKieSession();
        Set<String> globals = new HashSet<>();
        for (KiePackage pkg : base.getKiePackages()) {
            for (Global global : pkg.getGlobalVariables()) {
                globals.add(global.getName());
            }
        }
        setIfDeclared(globals, "actions", actions);
        setIfDeclared(globals, "config", config);
        setIfDeclared(globals, "verdict", verdict);
    }

    private void setIfDeclared(Set<String> globals, String name, Object value) {
        if (globals.contains(name)) {
            session.setGlobal(name, value);
        }
    }

    KieBase base() {
        return base;
    }

    /** Inserts the event, fires, deletes it again; returns what the rules decided. */
    Evaluation fire(Object event) {
        verdict.reset();
        FactHandle handle = session.insert(event);
        try {
            int fired = session.fireAllRules();
            return Evaluation.ok(verdict.toDecision(), fired);
        } finally {
            session.delete(handle);
        }
    }

    int fireAll() {
        return session.fireAllRules();
    }

    FactHandle insert(Object fact) {
        return session.insert(fact);
    }

    void retract(FactHandle handle) {
        session.delete(handle);
    }

    void dispose() {
        session.dispose();
    }
}
