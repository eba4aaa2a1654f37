package org.autodisk.cli;

import java.util.ServiceLoader;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;

/** The {@code autodisk} command, with the subcommands of the {@link CliExtension}s on the class path. */
@Command(name = "autodisk", footer = "  autodisk demo", mixinStandardHelpOptions = true, version = "AutoDisk 0.1.0",
        description = "A distributed storage cluster of autonomous disks.",
        subcommands = {NodeCommand.class, LocalCommand.class, DemoCommand.class, InsertCommand.class,
            SearchCommand.class, DeleteCommand.class, TraverseCommand.class, StatusCommand.class,
            RangesCommand.class, MembersCommand.class, DirectoryCommand.class, SplitCommand.class, MigrateCommand.class,
            MigrationsCommand.class, BalanceCommand.class, RulesCommand.class,
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
        helpEverywhere(cl, cl.getCommandSpec().version());
        cl.setExecutionExceptionHandler((e, cmd, parsed) -> {
            cmd.getErr().println("error: " + CliErrors.describe(e));
            return 2;
        });
        return cl;
    }

    /** Every command takes {@code -h}/{@code --help} (and {@code -V}), and its usage ends with an example. */
    private static void helpEverywhere(CommandLine cl, String[] version) {
        CommandSpec spec = cl.getCommandSpec();
        if (!spec.helpCommand()) {
            spec.mixinStandardHelpOptions(true);
            spec.version(version);
            spec.usageMessage().footerHeading("%nExample:%n");
        }
        cl.getSubcommands().values().forEach(sub -> helpEverywhere(sub, version));
    }
}
