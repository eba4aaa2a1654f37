package org.autodisk.rules;

import java.util.List;

/** Rule files did not compile; {@link #errors()} names file and line of each error. */
public final class RuleCompilationException extends Exception {

    private static final long serialVersionUID = 1L;

    private final transient List<RuleError> errors;

    /**
     * Creates the exception.
     *
     * @param errors the errors, at least one
     */
    public RuleCompilationException(List<RuleError> errors) {
        super("rules do not compile: " + errors);
        this.errors = List.copyOf(errors);
    }

    /**
     * Returns the errors.
     *
     * @return the errors with file and line
     */
    public List<RuleError> errors() {
        return errors;
    }
}
