package org.autodisk.core.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigTest {

    private static final ConfigKey<Integer> QUEUE_CAPACITY =
            ConfigKey.of("queue.capacity", Integer.class, 1000, "request queue length");
    private static final ConfigKey<Long> TIMEOUT =
            ConfigKey.of("forward.timeout-millis", Long.class, 5000L, "forwarding timeout");
    private static final ConfigKey<Boolean> TRACE =
            ConfigKey.of("trace.enabled", Boolean.class, Boolean.FALSE, "tracing on");
    private static final ConfigKey<String> NODE_ID =
            ConfigKey.of("node.id", String.class, null, "this node's id");
    @SuppressWarnings("rawtypes")
    private static final ConfigKey<List> SEEDS =
            ConfigKey.of("cluster.seeds", List.class, List.of(), "seed addresses");

    private static final List<ConfigKey<?>> KNOWN = List.of(QUEUE_CAPACITY, TIMEOUT, TRACE, NODE_ID, SEEDS);

    @Test
    void convertsStringsNumbersAndBooleans() {
        assertThat(QUEUE_CAPACITY.convert("42")).isEqualTo(42);
        assertThat(QUEUE_CAPACITY.convert(" 42 ")).isEqualTo(42);
        assertThat(QUEUE_CAPACITY.convert(42)).isEqualTo(42);
        assertThat(QUEUE_CAPACITY.convert(42L)).isEqualTo(42);
        assertThat(TIMEOUT.convert("9000000000")).isEqualTo(9_000_000_000L);
        assertThat(TIMEOUT.convert(7)).isEqualTo(7L);
        assertThat(NODE_ID.convert("node-1")).isEqualTo("node-1");
        assertThat(NODE_ID.convert(17)).isEqualTo("17");
    }

    @Test
    void convertsBooleanSpellings() {
        for (String yes : List.of("true", "TRUE", "yes", "on", " On ")) {
            assertThat(TRACE.convert(yes)).as(yes).isTrue();
        }
        for (String no : List.of("false", "False", "no", "off")) {
            assertThat(TRACE.convert(no)).as(no).isFalse();
        }
        assertThat(TRACE.convert(Boolean.TRUE)).isTrue();
    }

    @Test
    void convertsCommaSeparatedLists() {
        assertThat(SEEDS.convert("a:1, b:2 ,,c:3")).isEqualTo(List.of("a:1", "b:2", "c:3"));
        assertThat(SEEDS.convert("single")).isEqualTo(List.of("single"));
        assertThat(SEEDS.convert("")).isEqualTo(List.of());
        assertThat(SEEDS.convert(List.of("x", "y"))).isEqualTo(List.of("x", "y"));
    }

    @Test
    void wrongTypeNamesKeyTypeAndValue() {
        assertThatThrownBy(() -> QUEUE_CAPACITY.convert("lots")).isInstanceOf(ConfigException.class)
                .hasMessage("configuration key 'queue.capacity' expects a whole number but got 'lots'");
        assertThatThrownBy(() -> QUEUE_CAPACITY.convert("3000000000")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("'queue.capacity'");
        assertThatThrownBy(() -> QUEUE_CAPACITY.convert(1.5)).isInstanceOf(ConfigException.class)
                .hasMessageContaining("'queue.capacity'").hasMessageContaining("'1.5'");
        assertThatThrownBy(() -> TIMEOUT.convert("soon")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("'forward.timeout-millis' expects a whole number");
        assertThatThrownBy(() -> TRACE.convert("maybe")).isInstanceOf(ConfigException.class)
                .hasMessage("configuration key 'trace.enabled' expects true or false but got 'maybe'");
    }

    @Test
    void envVarNameIsDerivedFromTheKey() {
        assertThat(QUEUE_CAPACITY.envVar()).isEqualTo("AUTODISK_QUEUE_CAPACITY");
        assertThat(TIMEOUT.envVar()).isEqualTo("AUTODISK_FORWARD_TIMEOUT_MILLIS");
    }

    @Test
    void givenValuesAreConvertedAndDefaultsFillTheRest() {
        Config c = Config.of(KNOWN, Map.of("queue.capacity", "64", "node.id", "n1"), Map.of(), "node.yaml");

        assertThat(c.get(QUEUE_CAPACITY)).isEqualTo(64);
        assertThat(c.get(NODE_ID)).isEqualTo("n1");
        assertThat(c.get(TIMEOUT)).isEqualTo(5000L);
        assertThat(c.get(TRACE)).isFalse();
        assertThat(c.isSet(QUEUE_CAPACITY)).isTrue();
        assertThat(c.isSet(TIMEOUT)).isFalse();
    }

    @Test
    void unknownKeyNamesKeyAndSource() {
        Map<String, Object> given = Map.of("queue.capacty", 10);

        assertThatThrownBy(() -> Config.of(KNOWN, given, Map.of(), "/etc/autodisk/node.yaml"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown configuration key 'queue.capacty'")
                .hasMessageContaining("/etc/autodisk/node.yaml");
    }

    @Test
    void wrongTypeInTheFileNamesTheKey() {
        assertThatThrownBy(() -> Config.of(KNOWN, Map.of("trace.enabled", "sometimes"), Map.of(), "f.yaml"))
                .isInstanceOf(ConfigException.class).hasMessageContaining("'trace.enabled'");
    }

    @Test
    void environmentOverridesTheFile() {
        Map<String, String> env = Map.of(QUEUE_CAPACITY.envVar(), "128", "AUTODISK_TRACE_ENABLED", "yes",
                "AUTODISK_CLUSTER_SEEDS", "h1:7000,h2:7000", "AUTODISK_NO_BUILD", "1", "PATH", "/bin");

        Config c = Config.of(KNOWN, Map.of("queue.capacity", 64, "node.id", "n1"), env, "node.yaml");

        assertThat(c.get(QUEUE_CAPACITY)).isEqualTo(128);
        assertThat(c.get(TRACE)).isTrue();
        assertThat(c.get(SEEDS)).isEqualTo(List.of("h1:7000", "h2:7000"));
        assertThat(c.isSet(TRACE)).isTrue();
        assertThat(c.get(NODE_ID)).isEqualTo("n1");
    }

    @Test
    void wrongTypeInTheEnvironmentNamesTheKey() {
        Map<String, String> env = Map.of("AUTODISK_QUEUE_CAPACITY", "big");

        assertThatThrownBy(() -> Config.of(KNOWN, Map.of(), env, "node.yaml")).isInstanceOf(ConfigException.class)
                .hasMessageContaining("'queue.capacity'").hasMessageContaining("'big'");
    }

    @Test
    void missingRequiredKeyIsReportedWithItsDoc() {
        Config c = Config.of(KNOWN, Map.of(), Map.of(), "node.yaml");

        assertThatThrownBy(() -> c.get(NODE_ID)).isInstanceOf(ConfigException.class)
                .hasMessage("configuration key 'node.id' is required (this node's id) but is not set in "
                        + "node.yaml: set node.id in a configuration file or the variable AUTODISK_NODE_ID");
    }

    @Test
    void everyValueRemembersWhereItCameFromAndLaterLayersWin() {
        Config c = Config.of(KNOWN, List.of(new ConfigLayer("node.yaml", Map.of("queue.capacity", 1, "node.id", "a")),
                new ConfigLayer("--set", Map.of("queue.capacity", 2))), Map.of("AUTODISK_NODE_ID", "b"));

        assertThat(c.get(QUEUE_CAPACITY)).isEqualTo(2);
        assertThat(c.describe(QUEUE_CAPACITY)).isEqualTo("queue.capacity 2 (from --set)");
        assertThat(c.describe(NODE_ID)).isEqualTo("node.id b (from environment variable AUTODISK_NODE_ID)");
        assertThat(c.describe(TIMEOUT)).isEqualTo("forward.timeout-millis 5000 (from the default)");
    }

    @Test
    void anUnknownAutodiskVariableIsRefusedOthersAreIgnored() {
        assertThatThrownBy(() -> Config.of(KNOWN, Map.of(), Map.of("AUTODISK_QUEUE_CAPACTY", "5"), "f.yaml"))
                .isInstanceOf(ConfigException.class)
                .hasMessageContaining("unknown environment variable AUTODISK_QUEUE_CAPACTY:")
                .hasMessageContaining("did you mean AUTODISK_QUEUE_CAPACITY?");
        assertThatThrownBy(() -> Config.of(KNOWN, Map.of(), Map.of("AUTODISK_NODE_SECERT", "hunter2-hunter2"),
                "f.yaml")).hasMessageNotContaining("hunter2").hasMessageContaining("AUTODISK_NODE_SECERT");
        assertThat(Config.of(KNOWN, Map.of(), Map.of("HOME", "/root", "AUTODISK_IMAGE", "x"), "f.yaml")
                .isSet(QUEUE_CAPACITY)).isFalse();
    }

    @Test
    void aWrongTypeInTheEnvironmentNamesTheVariable() {
        assertThatThrownBy(() -> Config.of(KNOWN, Map.of(), Map.of("AUTODISK_TRACE_ENABLED", "sometimes"), "f.yaml"))
                .hasMessage("configuration key 'trace.enabled' expects true or false but got 'sometimes' (from "
                        + "environment variable AUTODISK_TRACE_ENABLED)");
    }

    @Test
    void effectiveListsEveryKeySortedWithDefaultsAndMissingRequired() {
        Config c = Config.of(KNOWN, Map.of("queue.capacity", "7"), Map.of(), "node.yaml");

        Map<String, Object> expected = new LinkedHashMap<>();
        expected.put("cluster.seeds", List.of());
        expected.put("forward.timeout-millis", 5000L);
        expected.put("node.id", "<required>");
        expected.put("queue.capacity", 7);
        expected.put("trace.enabled", false);
        assertThat(c.effective()).containsExactlyEntriesOf(expected);
    }
}
