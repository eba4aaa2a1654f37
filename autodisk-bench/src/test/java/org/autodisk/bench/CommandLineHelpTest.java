package org.autodisk.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.List;
import org.autodisk.cli.Main;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * Every command of {@code autodisk}, the bench extension's included, answers {@code --help} and {@code -h} with
 * its usage and an example of itself, and exits 0, without needing its required arguments.
 */
class CommandLineHelpTest {

    @Test
    void everyCommandAnswersHelpWithItsUsageAndAnExample() {
        List<List<String>> paths = new ArrayList<>();
        collect(Main.commandLine(), new ArrayList<>(), paths);
        assertThat(paths).extracting(p -> String.join(" ", p)).contains("", "insert", "status", "rules check",
                "bench forward", "bench splits", "local");
        for (List<String> path : paths) {
            for (String flag : List.of("--help", "-h")) {
                String shown = String.join(" ", path);
                StringWriter out = new StringWriter();
                CommandLine cl = Main.commandLine();
                cl.setOut(new PrintWriter(out));
                cl.setErr(new PrintWriter(out));
                List<String> args = new ArrayList<>(path);
                args.add(flag);

                int code = cl.execute(args.toArray(String[]::new));

                String usage = out.toString();
                String example = usage.contains("Example:") ? usage.substring(usage.indexOf("Example:")) : "";
                assertThat(code).as("exit code of autodisk %s %s: %s", shown, flag, usage).isZero();
                assertThat(usage).as("autodisk %s %s", shown, flag).startsWith("Usage: autodisk" + (path.isEmpty()
                        ? "" : " " + shown));
                assertThat(example).as("example of autodisk %s", shown).contains(("autodisk " + shown).trim());
            }
        }
    }

    private static void collect(CommandLine cl, List<String> path, List<List<String>> out) {
        if (cl.getCommandSpec().helpCommand()) {
            return;
        }
        out.add(List.copyOf(path));
        cl.getSubcommands().forEach((name, sub) -> {
            if (name.equals(sub.getCommandName())) {
                List<String> deeper = new ArrayList<>(path);
                deeper.add(name);
                collect(sub, deeper, out);
            }
        });
    }
}
