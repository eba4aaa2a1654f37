package org.autodisk.rules;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.kie.api.KieBase;
import org.kie.api.runtime.rule.ConsequenceException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The ECA rule engine of one node. Request events ({@link RequestEvent}) are evaluated on a long-lived
 * stateful session of the calling thread (insert, fire, delete: microseconds) and answered with a
 * {@link Decision}; other events go to one shared control session that keeps the latest {@link LoadReport}
 * of every node. A rule that throws never escapes: {@link #evaluate} returns a failed {@link Evaluation}
 * naming the rule, the failure is counted per rule and logged, and the session is replaced.
 * {@link #reload} swaps the rule base atomically; a reload that does not compile keeps the old rules.
 */
public final class RuleEngine implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(RuleEngine.class);
    private static final String CONDITION = "(condition)";
    private static final Pattern RULE_IN_MESSAGE = Pattern.compile("Rule \"([^\"]*)\"");

    private final String owner;
    private final RuleConfig config;
    private final NodeActions actions;
    private final AtomicReference<KieBase> current;
    private final ThreadLocal<RuleSession> sessions = new ThreadLocal<>();
    private final Set<RuleSession> allSessions = ConcurrentHashMap.newKeySet();
    private final Map<String, LongAdder> failures = new ConcurrentHashMap<>();
    private final ControlSession control;

    private RuleEngine(KieBase base, RuleConfig config, NodeActions actions, String owner) {
        this.owner = owner;
        this.config = config;
        this.actions = actions;
        this.current = new AtomicReference<>(base);
        this.control = new ControlSession(base, config, actions);
    }

    /**
     * Builds an engine from rule sources.
     *
     * @param sources the DRL files
     * @param config the settings rules read through the global {@code config}
     * @param actions the node's actions, the global {@code actions}
     * @return the engine
     * @throws RuleCompilationException when the rules do not compile
     */
    public static RuleEngine create(List<RuleSource> sources, RuleConfig config, NodeActions actions)
            throws RuleCompilationException {
        RuleCompiler.Result result = RuleCompiler.compile(sources);
        if (!result.errors().isEmpty()) {
            throw new RuleCompilationException(result.errors());
        }
        return new RuleEngine(result.base(), config, actions, "rules");
    }

    /**
     * Builds an engine from rules compiled by {@link #prepare}.
     *
     * @param prepared rules without errors
     * @param config the settings rules read through the global {@code config}
     * @param actions the node's actions, the global {@code actions}
     * @param owner the node id that begins the engine's log messages
     * @return the engine
     * @throws RuleCompilationException when the prepared rules had errors
     */
    public static RuleEngine create(Prepared prepared, RuleConfig config, NodeActions actions, String owner)
            throws RuleCompilationException {
        if (prepared.base == null) {
            throw new RuleCompilationException(prepared.errors());
        }
        return new RuleEngine(prepared.base, config, actions, owner);
    }

    /**
     * Builds an engine from the shipped rules and a user rules directory.
     *
     * @param userDir the directory of user {@code .drl} files, or null for the shipped rules only
     * @param config the settings rules read through the global {@code config}
     * @param actions the node's actions
     * @return the engine
     * @throws IOException when the directory cannot be read
     * @throws RuleCompilationException when the rules do not compile
     */
    public static RuleEngine create(Path userDir, RuleConfig config, NodeActions actions)
            throws IOException, RuleCompilationException {
        return create(RuleSource.shippedAnd(userDir), config, actions);
    }

    /**
     * Compiles the shipped rules with a user rules directory and returns the errors.
     *
     * @param userDir the directory of user {@code .drl} files
     * @return the errors with file and line; empty when everything compiles
     * @throws IOException when the directory cannot be read
     */
    public static List<RuleError> validate(Path userDir) throws IOException {
        return validate(RuleSource.shippedAnd(userDir));
    }

    /**
     * Compiles rule sources and returns the errors.
     *
     * @param sources the DRL files
     * @return the errors with file and line; empty when everything compiles
     */
    public static List<RuleError> validate(List<RuleSource> sources) {
        return RuleCompiler.compile(sources).errors();
    }

    /**
     * Replaces the rules atomically: evaluations already running finish on the old rules, later ones see the
     * new rules. When the new rules do not compile, the old rules stay.
     *
     * @param sources the new DRL files (the complete set)
     * @return the compilation errors; empty when the new rules are in force
     */
    public List<RuleError> reload(List<RuleSource> sources) {
        Prepared prepared = prepare(sources);
        if (!prepared.errors().isEmpty()) {
            LOG.warn("{}: rule reload refused, the old rules stay: {}", owner, prepared.errors());
            return prepared.errors();
        }
        install(prepared);
        return List.of();
    }

    /**
     * Compiles new rules without installing them: the first phase of a reload that must succeed on every node
     * of a cluster before any node switches.
     *
     * @param sources the new DRL files (the complete set)
     * @return the compiled rules, or their errors
     */
    public static Prepared prepare(List<RuleSource> sources) {
        RuleCompiler.Result result = RuleCompiler.compile(sources);
        return new Prepared(result.base(), result.errors(), sources.size());
    }

    /**
     * Installs prepared rules atomically: evaluations already running finish on the old rules.
     *
     * @param prepared rules that compiled
     * @throws IllegalArgumentException if they had errors
     */
    public void install(Prepared prepared) {
        if (prepared.base == null) {
            throw new IllegalArgumentException("rules with errors cannot be installed: " + prepared.errors());
        }
        current.set(prepared.base);
        control.renew(prepared.base);
        LOG.info("{}: rules reloaded: {} files", owner, prepared.files);
    }

    /** Compiled rules waiting to be installed, or the errors that keep them from it. */
    public static final class Prepared {
        private final KieBase base;
        private final List<RuleError> errors;
        private final int files;

        private Prepared(KieBase base, List<RuleError> errors, int files) {
            this.base = base;
            this.errors = List.copyOf(errors);
            this.files = files;
        }

        /**
         * Rules that could not even be compiled (their files could not be read, say).
         *
         * @param error why
         * @return prepared rules carrying only the error
         */
        public static Prepared failed(RuleError error) {
            return new Prepared(null, List.of(error), 0);
        }

        /**
         * Returns how many rule files were compiled.
         *
         * @return the file count
         */
        public int files() {
            return files;
        }

        /**
         * Returns the compilation errors.
         *
         * @return errors with file and line; empty when the rules can be installed
         */
        public List<RuleError> errors() {
            return errors;
        }
    }

    /**
     * Replaces the rules with the shipped rules and a user directory's files.
     *
     * @param userDir the directory of user {@code .drl} files
     * @return the compilation errors; empty when the new rules are in force
     * @throws IOException when the directory cannot be read
     */
    public List<RuleError> reload(Path userDir) throws IOException {
        return reload(RuleSource.shippedAnd(userDir));
    }

    /**
     * Decides a request: shorthand for {@code evaluate(request).decision()}.
     *
     * @param request the request event
     * @return the decision; {@link Decision#NONE} when no rule decided or a rule failed
     */
    public Decision decide(RequestEvent request) {
        return evaluate(request).decision();
    }

    /**
     * Evaluates one event: inserts it, fires the rules, removes it again.
     *
     * @param event the event fact (a record of this package, or any fact user rules match)
     * @return the outcome; never throws for a failing rule
     */
    public Evaluation evaluate(Object event) {
        if (event instanceof RequestEvent) {
            return evaluateRequest(event);
        }
        try {
            return control.fire(event);
        } catch (RuntimeException e) {
            control.renew(current.get());
            return failed(e, event);
        }
    }

    private Evaluation evaluateRequest(Object event) {
        RuleSession session = threadSession();
        try {
            return session.fire(event);
        } catch (RuntimeException e) {
            sessions.remove();
            allSessions.remove(session);
            session.dispose();
            return failed(e, event);
        }
    }

    private RuleSession threadSession() {
        KieBase base = current.get();
        RuleSession session = sessions.get();
        if (session != null && session.base() == base) {
            return session;
        }
        if (session != null) {
            allSessions.remove(session);
            session.dispose();
        }
        session = new RuleSession(base, config, actions);
        sessions.set(session);
        allSessions.add(session);
        return session;
    }

    private Evaluation failed(RuntimeException e, Object event) {
        String rule = ruleName(e);
        failures.computeIfAbsent(rule, r -> new LongAdder()).increment();
        Throwable cause = e.getCause() != null && e instanceof ConsequenceException ? e.getCause() : e;
        String message = cause.getClass().getSimpleName() + ": " + cause.getMessage();
        LOG.error("{}: rule '{}' failed on {}: {}", owner, rule, event, message, e);
        return Evaluation.failed(rule, message);
    }

    private static String ruleName(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof ConsequenceException ce && ce.getMatch() != null) {
                return ce.getMatch().getRule().getName();
            }
            Matcher matcher = t.getMessage() == null ? null : RULE_IN_MESSAGE.matcher(t.getMessage());
            if (matcher != null && matcher.find()) {
                return matcher.group(1);
            }
        }
        return CONDITION;
    }

    /**
     * Returns the latest {@link LoadReport} of every node, as the control session holds them.
     *
     * @return the reports by node id
     */
    public Map<String, LoadReport> loadReports() {
        return control.reports();
    }

    /**
     * Returns how often each rule failed since the engine started.
     *
     * @return failures per rule name ({@code "(condition)"} when the failing rule is unknown), sorted by name
     */
    public Map<String, Long> failureCounts() {
        Map<String, Long> counts = new TreeMap<>();
        failures.forEach((rule, count) -> counts.put(rule, count.sum()));
        return counts;
    }

    /** Disposes every session; call when no thread evaluates any more. */
    @Override
    public void close() {
        allSessions.forEach(RuleSession::dispose);
        allSessions.clear();
        control.dispose();
    }
}
