package org.autodisk.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.autodisk.client.AutoDiskClient;
import org.autodisk.client.RefusedException;
import org.autodisk.core.cluster.RangeStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example rules end to end in a local cluster of node processes (2 data + 2 log nodes, multiplicity 1):
 * write-protected and double-logged key prefixes, {@code rules check}, {@code rules reload}, and a node that
 * refuses to start on an invalid rule file.
 */
class RulesLocalClusterIT {

    @TempDir
    Path dir;

    private Path rules() throws Exception {
        Path rules = Files.createDirectories(dir.resolve("rules"));
        for (String name : new String[] {"write-protect.drl", "double-log.drl"}) {
            try (InputStream in = getClass().getClassLoader()
                    .getResourceAsStream("org/autodisk/rules/examples/" + name)) {
                Files.write(rules.resolve(name), in.readAllBytes());
            }
        }
        return rules;
    }

    @Test
    void exampleRulesProtectAndDoubleLogKeysAndReloadAcrossTheCluster() throws Exception {
        Path rules = rules();
        Launcher.Result check = Launcher.run("rules", "check", rules.toString());
        assertThat(check.exitCode()).as(check.output()).isZero();
        assertThat(check.output()).contains("ok: 9 rule files compile");

        int basePort = FreePorts.base(4);
        Process launcher = Launcher.start("local", "--data-nodes", "2", "--log-nodes", "2", "--base-port",
                String.valueOf(basePort), "--dir", dir.resolve("cluster").toString(), "--split-points", "m",
                "--set", "rules.dir=" + rules, "--set", "rules.write-protected-prefixes=contracts/",
                "--set", "rules.double-log-prefixes=ledger/");
        try {
            String seeds = Launcher.awaitReady(launcher);
            try (AutoDiskClient client = AutoDiskClient.builder().seeds(seeds.split(",")[1])
                    .requestTimeout(Duration.ofSeconds(20)).build()) {
                protectedKeys(client);
                assertThat(client.status().ranges()).extracting(RangeStatus::logNodes)
                        .allSatisfy(logs -> assertThat(logs).hasSize(2));
                client.insert("ledger/2026-11-22", "debit 10");
                assertThat(client.search("ledger/2026-11-22")).map(String::new).contains("debit 10");
                reload(rules, seeds);
                assertThatThrownBy(() -> client.insert("notes/a", "x")).isInstanceOf(RefusedException.class)
                        .hasMessageContaining("notes are read-only today");
            }
        } finally {
            launcher.destroy();
            launcher.waitFor(60, TimeUnit.SECONDS);
            launcher.descendants().forEach(ProcessHandle::destroyForcibly);
        }
    }

    private static void protectedKeys(AutoDiskClient client) {
        client.insert("contracts/42", "signed");
        assertThatThrownBy(() -> client.insert("contracts/42", "forged")).isInstanceOf(RefusedException.class)
                .hasMessage("key 'contracts/42' is write-protected (prefix 'contracts/'): replace refused");
        assertThatThrownBy(() -> client.delete("contracts/42")).isInstanceOf(RefusedException.class)
                .hasMessageContaining("delete refused");
        assertThat(client.search("contracts/42")).map(String::new).contains("signed");
        client.insert("drafts/1", "a");
        client.insert("drafts/1", "b");
        assertThat(client.delete("drafts/1")).isTrue();
    }

    private static void reload(Path rules, String seeds) throws Exception {
        Path broken = Files.writeString(rules.resolve("broken.drl"), "package org.autodisk.rules;\n"
                + "rule \"half\"\nwhen\n    InsertRequested( key == )\nthen\nend\n");
        Launcher.Result bad = Launcher.run("rules", "check", rules.toString());
        assertThat(bad.exitCode()).isEqualTo(1);
        assertThat(bad.output()).contains(broken + ":4:");
        Launcher.Result refused = Launcher.run("rules", "reload", "--seeds", seeds);
        assertThat(refused.exitCode()).as(refused.output()).isEqualTo(1);
        assertThat(refused.output()).contains("not reloaded: every node keeps its old rules");

        Files.delete(broken);
        Files.writeString(rules.resolve("notes.drl"), "package org.autodisk.rules;\n"
                + "global org.autodisk.rules.Verdict verdict;\n"
                + "rule \"read-only notes\"\nwhen\n    InsertRequested( key str[startsWith] \"notes/\" )\nthen\n"
                + "    verdict.refuse(\"notes are read-only today\");\nend\n");
        Launcher.Result ok = Launcher.run("rules", "reload", "--seeds", seeds);
        assertThat(ok.exitCode()).as(ok.output()).isZero();
        assertThat(ok.output()).contains("reloaded: the new rules are in force").contains("l1: 10 rule files");
    }

    @Test
    void aNodeWithAnInvalidRuleFileDoesNotStartAndSaysWhereTheErrorIs() throws Exception {
        Path rules = rules();
        Path broken = Files.writeString(rules.resolve("broken.drl"), "package org.autodisk.rules;\n"
                + "rule \"half\"\nwhen\n    DeleteRequested( key == )\nthen\nend\n");
        int port = FreePorts.base(1);
        Path config = Files.writeString(dir.resolve("node.yaml"), "node:\n  id: d1\n  data-dir: " + dir.resolve("d")
                + "\ncluster:\n  nodes: d1=data@127.0.0.1:" + port + "\nrules:\n  dir: " + rules + "\n");
        Launcher.Result result = Launcher.run("node", "--config", config.toString());
        assertThat(result.exitCode()).isEqualTo(2);
        assertThat(result.output()).contains("error: node d1: the rules do not compile").contains(broken + ":4:");
    }
}
