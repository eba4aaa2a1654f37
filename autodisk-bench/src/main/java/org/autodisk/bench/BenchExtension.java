package org.autodisk.bench;

import org.autodisk.cli.CliExtension;

/** Adds {@code bench} to the {@code autodisk} command when this module is on the class path. */
public final class BenchExtension implements CliExtension {

    /** Creates the extension (the service loader does). */
    public BenchExtension() {
    }

    @Override
    public Object command() {
        return new BenchCommand();
    }
}
