package org.autodisk.node.rules;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes rule files into a test's rules directory. */
final class RuleFiles {

    private RuleFiles() {
    }

    /**
     * Copies a shipped example (e.g. {@code write-protect.drl}) into a directory, as an operator would.
     *
     * @param dir  the rules directory
     * @param name the example's file name
     * @return the copy
     */
    static Path example(Path dir, String name) {
        try (InputStream in = RuleFiles.class.getClassLoader()
                .getResourceAsStream("org/autodisk/rules/examples/" + name)) {
            Path target = dir.resolve(name);
            Files.write(target, in.readAllBytes());
            return target;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Writes a rule file.
     *
     * @param dir   the rules directory
     * @param name  the file name
     * @param rules the DRL after the package and imports
     * @return the file
     */
    static Path write(Path dir, String name, String rules) {
        try {
            return Files.writeString(dir.resolve(name), "package org.autodisk.rules;\n"
                    + "import org.autodisk.rules.*;\n"
                    + "global org.autodisk.rules.Verdict verdict;\n" + rules);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
