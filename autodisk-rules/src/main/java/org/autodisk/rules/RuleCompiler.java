package org.autodisk.rules;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import org.kie.api.KieBase;
import org.kie.api.KieServices;
import org.kie.api.builder.KieBuilder;
import org.kie.api.builder.KieFileSystem;
import org.kie.api.builder.Message;
import org.kie.api.builder.ReleaseId;
import org.kie.api.io.ResourceType;

/** Compiles DRL sources into a rule base, reporting errors by file and line. */
final class RuleCompiler {

    private static final String NULL_PACKAGE = "Parser returned a null Package";
    private static final AtomicLong BUILDS = new AtomicLong();
    private static final String FOLDER = "src/main/resources/org/autodisk/rules/";
    private static final int CACHED_BASES = 8;
    private static final Map<List<RuleSource>, KieBase> CACHE = new LinkedHashMap<>(16, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<List<RuleSource>, KieBase> eldest) {
            return size() > CACHED_BASES;
        }
    };

    /** The outcome: a rule base, or the errors (never both). */
    record Result(KieBase base, List<RuleError> errors) {
    }

    private RuleCompiler() {
    }

    /**
     * Compiles, or returns the rule base compiled earlier from the same sources (a rule base is immutable and
     * shared safely, so nodes of one process and repeated reloads of unchanged files compile once).
     */
    static Result compile(List<RuleSource> sources) {
        List<RuleSource> key = List.copyOf(sources);
        synchronized (CACHE) {
            KieBase cached = CACHE.get(key);
            if (cached != null) {
                return new Result(cached, List.of());
            }
        }
        Result result = build(key);
        if (result.base() != null) {
            synchronized (CACHE) {
                CACHE.put(key, result.base());
            }
        }
        return result;
    }

    private static Result build(List<RuleSource> sources) {
        KieServices services = KieServices.Factory.get();
        KieFileSystem files = services.newKieFileSystem();
        ReleaseId releaseId = services.newReleaseId("org.autodisk", "rules-" + BUILDS.incrementAndGet(), "1");
        files.generateAndWritePomXML(releaseId);
        Map<String, String> origins = write(services, files, sources);
        KieBuilder builder = services.newKieBuilder(files).buildAll();
        List<RuleError> errors = errors(builder, origins);
        if (!errors.isEmpty()) {
            services.getRepository().removeKieModule(releaseId);
            return new Result(null, errors);
        }
        KieBase base = services.newKieContainer(releaseId).getKieBase();
        services.getRepository().removeKieModule(releaseId);
        return new Result(base, List.of());
    }

    private static Map<String, String> write(KieServices services, KieFileSystem files, List<RuleSource> sources) {
        Map<String, String> origins = new HashMap<>();
        for (int i = 0; i < sources.size(); i++) {
            RuleSource source = sources.get(i);
            String path = FOLDER + "f" + i + ".drl";
            origins.put(path, source.origin());
            files.write(path, services.getResources()
                    .newByteArrayResource(source.drl().getBytes(StandardCharsets.UTF_8))
                    .setResourceType(ResourceType.DRL));
        }
        return origins;
    }

    private static List<RuleError> errors(KieBuilder builder, Map<String, String> origins) {
        List<RuleError> errors = new ArrayList<>();
        for (Message message : builder.getResults().getMessages(Message.Level.ERROR)) {
            String path = message.getPath() == null ? "" : message.getPath();
            String file = origins.getOrDefault(path, origins.getOrDefault(FOLDER + stripFolder(path), path));
            errors.add(new RuleError(file, Math.max(0, message.getLine()), message.getText().strip()));
        }
        return withoutEchoes(errors);
    }

    /**
     * Drops Drools's "Parser returned a null Package" for a file that already has a real parse error: it only
     * repeats that the file did not parse, at line 0.
     */
    private static List<RuleError> withoutEchoes(List<RuleError> errors) {
        return errors.stream().filter(e -> !(NULL_PACKAGE.equals(e.message()) && errors.stream()
                .anyMatch(o -> o != e && o.file().equals(e.file()) && !NULL_PACKAGE.equals(o.message())))).toList();
    }

    private static String stripFolder(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
