package org.autodisk.rules;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
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

    private static final AtomicLong BUILDS = new AtomicLong();
    private static final String FOLDER = "src/main/resources/org/autodisk/rules/";

    /** The outcome: a rule base, or the errors (never both). */
    record Result(KieBase base, List<RuleError> errors) {
    }

    private RuleCompiler() {
    }

    static Result compile(List<RuleSource> sources) {
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
        return errors;
    }

    private static String stripFolder(String path) {
        return path.substring(path.lastIndexOf('/') + 1);
    }
}
