package org.autodisk.node.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import org.autodisk.client.AsyncAutoDiskClient;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.RefusedException;
import org.autodisk.core.cluster.RulesReload;
import org.autodisk.node.MiniCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Cluster-wide rule reloads over real sockets: all or none, and no request lost while the rules change. */
class RulesReloadTest {

    @TempDir
    Path dir;

    private static String text(Optional<byte[]> value) {
        return value.map(v -> new String(v, StandardCharsets.UTF_8)).orElse(null);
    }

    private MiniCluster start() {
        return MiniCluster.start(3, null, Map.of("rules.dir", dir.toString(),
                "rules.write-protected-prefixes", "ro/"));
    }

    @Test
    void aReloadWithErrorsKeepsTheOldRulesEverywhereAndAFixedOneInstallsThem() throws Exception {
        try (MiniCluster c = start()) {
            AutoDiskClient client = c.clientOf(1);
            client.insert("ro/a", "1");
            Path broken = RuleFiles.write(dir, "broken.drl", "rule \"half\"\nwhen\n    DeleteRequested( key == )\n"
                    + "then\nend\n");
            RuleFiles.example(dir, "write-protect.drl");
            RulesReload refused = client.reloadRules();
            assertThat(refused.installed()).isFalse();
            assertThat(refused.coordinator()).isEqualTo("d2");
            assertThat(refused.nodes()).hasSize(3).allSatisfy(n -> {
                assertThat(n.reachable()).isTrue();
                assertThat(n.errors()).anySatisfy(e -> assertThat(e).startsWith(broken + ":6:"));
            });
            client.insert("ro/a", "2");

            Files.delete(broken);
            RulesReload installed = client.reloadRules();
            assertThat(installed.installed()).isTrue();
            assertThat(installed.nodes()).extracting(RulesReload.NodeReload::id).containsExactly("d1", "d2", "d3");
            assertThat(installed.nodes()).allSatisfy(n -> assertThat(n.errors()).isEmpty());
            assertThatThrownBy(() -> client.insert("ro/a", "3")).isInstanceOf(RefusedException.class)
                    .hasMessageContaining("replace refused");
            assertThatThrownBy(() -> c.clientOf(0).delete("ro/a")).isInstanceOf(RefusedException.class);
            assertThat(text(client.search("ro/a"))).isEqualTo("2");
        }
    }

    @Test
    void reloadsUnderInsertLoadLoseNoRequest() throws Exception {
        try (MiniCluster c = start()) {
            AsyncAutoDiskClient async = c.clientOf(0).async();
            AtomicBoolean reloading = new AtomicBoolean(true);
            List<CompletableFuture<Void>> inserts = new ArrayList<>();
            Thread loader = Thread.ofPlatform().start(() -> {
                for (int i = 0; reloading.get() || i < 2000; i++) {
                    inserts.add(async.insert("k" + i, "v" + i));
                    if (i % 64 == 63) {
                        inserts.get(i - 32).join();
                    }
                }
            });
            for (int r = 0; r < 4; r++) {
                RuleFiles.write(dir, "extra-" + r + ".drl", "rule \"noop " + r + "\"\nwhen\n"
                        + "    SearchRequested( key == \"none\" )\nthen\nend\n");
                assertThat(c.clientOf(2).reloadRules().installed()).isTrue();
            }
            reloading.set(false);
            loader.join();
            CompletableFuture.allOf(inserts.toArray(CompletableFuture[]::new)).join();
            AutoDiskClient check = c.clientOf(1);
            for (int i = 0; i < inserts.size(); i++) {
                assertThat(text(check.search("k" + i))).isEqualTo("v" + i);
            }
        }
    }
}
