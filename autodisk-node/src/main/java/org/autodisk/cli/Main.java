package org.autodisk.cli;

import java.util.ServiceLoader;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** The {@code autodisk} command, with the subcommands of the {@link CliExtension}s on the class path. */
@Command(name = "autodisk", mixinStandardHelpOptions = true, version = "AutoDisk 0.1.0",
        description = "A distributed storage cluster of autonomous disks.",
        subcommands = {NodeCommand.class, LocalCommand.class, DemoCommand.class, InsertCommand.class,
            SearchCommand.class, DeleteCommand.class, TraverseCommand.class, StatusCommand.class,
            RangesCommand.class, MembersCommand.class, SplitCommand.class, RulesCommand.class,
            CommandLine.HelpCommand.class})
public final class Main {

    private Main() {
    }

    /**
     * Runs the command line and exits with its code.
     *
     * @param args the arguments
     */
    public static void main(String[] args) {
        boolean runsNode = args.length > 0 && "node".equals(args[0]);
        if (System.getProperty("autodisk.log.level") == null) {
            System.setProperty("autodisk.log.level", runsNode ? "INFO" : "WARN");
        }
        System.exit(commandLine().execute(args));
    }

    /**
     * Builds the picocli command line, with errors printed as one clear line.
     *
     * @return the command line
     */
    public static CommandLine commandLine() {
        CommandLine cl = new CommandLine(new Main());
        for (CliExtension extension : ServiceLoader.load(CliExtension.class)) {
            cl.addSubcommand(extension.command());
        }
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("error: " + (e.getMessage() == null ? e.toString() : e.getMessage()));
            return 2;
        });
        return cl;
    }
}
