package org.autodisk.it;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/** Runs {@code ../autodisk} commands as a user would (without rebuilding), for the multi-process tests. */
final class Launcher {

    /** A finished command: its exit code and everything it printed. */
    record Result(int exitCode, String output) {
    }

    private Launcher() {
    }

    /**
     * Starts {@code ./autodisk} with arguments, output and errors merged.
     *
     * @param args the arguments
     * @return the process
     * @throws IOException when it cannot start
     */
    static Process start(String... args) throws IOException {
        return start(java.util.Map.of(), args);
    }

    /**
     * Starts {@code ./autodisk} with extra environment variables and arguments, output and errors merged.
     *
     * @param env  variables added to this process's environment
     * @param args the arguments
     * @return the process
     * @throws IOException when it cannot start
     */
    static Process start(java.util.Map<String, String> env, String... args) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(concat(args)).redirectErrorStream(true);
        builder.environment().put("AUTODISK_NO_BUILD", "1");
        builder.environment().putAll(env);
        return builder.start();
    }

    /**
     * Runs {@code ./autodisk} with arguments to its end.
     *
     * @param args the arguments
     * @return exit code and output
     * @throws Exception when it cannot run or does not end within 120 s
     */
    static Result run(String... args) throws Exception {
        return run(java.util.Map.of(), args);
    }

    /**
     * Runs {@code ./autodisk} with extra environment variables and arguments to its end.
     *
     * @param env  variables added to this process's environment
     * @param args the arguments
     * @return exit code and output
     * @throws Exception when it cannot run or does not end within 120 s
     */
    static Result run(java.util.Map<String, String> env, String... args) throws Exception {
        Process p = start(env, args);
        CompletableFuture<String> out = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }, OwnThread.named("launcher-output"));
        if (!p.waitFor(120, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError("autodisk " + String.join(" ", args) + " did not end within 120 s");
        }
        return new Result(p.exitValue(), out.get(10, TimeUnit.SECONDS));
    }

    private static List<String> concat(String... args) {
        List<String> command = new java.util.ArrayList<>(List.of("../autodisk"));
        command.addAll(List.of(args));
        return command;
    }

    /**
     * Waits for {@code ./autodisk local} to print its seeds.
     *
     * @param launcher the {@code local} process
     * @return the comma-separated seed addresses
     * @throws Exception when the launcher ends or 180 s pass first
     */
    static String awaitReady(Process launcher) throws Exception {
        BufferedReader out = new BufferedReader(new InputStreamReader(launcher.getInputStream(),
                StandardCharsets.UTF_8));
        StringBuilder seen = new StringBuilder();
        CompletableFuture<String> ready = CompletableFuture.supplyAsync(() -> {
            try {
                for (String line = out.readLine(); line != null; line = out.readLine()) {
                    seen.append(line).append('\n');
                    if (line.startsWith("cluster ready: seeds=")) {
                        return line.substring("cluster ready: seeds=".length());
                    }
                }
                throw new IllegalStateException("launcher ended before the cluster was ready:\n" + seen);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }, OwnThread.named("launcher-output"));
        try {
            return ready.get(180, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("no 'cluster ready' line within 180 s; output so far:\n" + seen, e);
        }
    }
}
