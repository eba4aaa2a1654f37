package org.autodisk.rules;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The text of one DRL file.
 *
 * @param name the file name that identifies it; a user file replaces a shipped file of the same name
 * @param origin where it came from, as shown in errors (a path, or {@code classpath:...})
 * @param drl the rules
 */
public record RuleSource(String name, String origin, String drl) {

    /** The rule files shipped with AutoDisk and loaded by default. */
    public static final List<String> SHIPPED = List.of("routing.drl", "catch-up.drl", "load.drl", "suspect.drl",
            "split.drl", "balance.drl", "failover.drl");

    private static final String BASE = "org/autodisk/rules/";

    /**
     * Loads a file shipped under {@code org/autodisk/rules/} on the class path.
     *
     * @param name the file, relative to that folder (e.g. {@code examples/double-log.drl})
     * @return the source
     */
    public static RuleSource classpath(String name) {
        try (InputStream in = RuleSource.class.getClassLoader().getResourceAsStream(BASE + name)) {
            if (in == null) {
                throw new IllegalArgumentException("no shipped rule file " + name);
            }
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            return new RuleSource(name.substring(name.lastIndexOf('/') + 1), "classpath:" + BASE + name, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Loads the shipped default rules.
     *
     * @return routing, catch-up, load and suspect rules
     */
    public static List<RuleSource> shipped() {
        return SHIPPED.stream().map(RuleSource::classpath).toList();
    }

    /**
     * Reads every {@code .drl} file of a directory (not its subdirectories), sorted by name.
     *
     * @param dir the user rules directory
     * @return the sources
     * @throws IOException when the directory cannot be read
     */
    public static List<RuleSource> directory(Path dir) throws IOException {
        List<RuleSource> sources = new ArrayList<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".drl")).sorted().toList()) {
                sources.add(new RuleSource(file.getFileName().toString(), file.toString(), Files.readString(file)));
            }
        }
        return sources;
    }

    /**
     * The shipped rules plus a user directory's files, a user file replacing a shipped one of the same name.
     *
     * @param dir the user rules directory, or null for the shipped rules only
     * @return the sources
     * @throws IOException when the directory cannot be read
     */
    public static List<RuleSource> shippedAnd(Path dir) throws IOException {
        Map<String, RuleSource> byName = new LinkedHashMap<>();
        shipped().forEach(s -> byName.put(s.name(), s));
        if (dir != null) {
            directory(dir).forEach(s -> byName.put(s.name(), s));
        }
        return List.copyOf(byName.values());
    }
}
