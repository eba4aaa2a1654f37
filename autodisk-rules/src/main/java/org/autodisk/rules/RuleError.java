package org.autodisk.rules;

/**
 * A compilation error in a rule file.
 *
 * @param file the file (a path, or {@code classpath:...} for a shipped file)
 * @param line the line, 1-based, or 0 when unknown
 * @param message what is wrong
 */
public record RuleError(String file, int line, String message) {

    @Override
    public String toString() {
        return file + ":" + line + ": " + message;
    }
}
