package org.autodisk.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import org.autodisk.core.Limits;
import org.autodisk.core.cluster.RangeStatus;
import org.autodisk.core.cluster.RangesReport;
import org.junit.jupiter.api.Test;

/** The members' addresses the cluster reports reach the client through its address translator. */
class AddressTranslatorTest {

    private static Connector connector(UnaryOperator<String> translator) {
        return new Connector(new ClientSettings(List.of(Seed.parse("localhost:1")), Duration.ofSeconds(1),
                Duration.ofSeconds(1), Limits.DEFAULT, "test", null, true, translator));
    }

    @Test
    void reportedAddressesAreTranslatedForDirectRoutesAndLeftAsTheyAreByDefault() {
        RangesReport report = new RangesReport("d1", "range", 7, List.of(new RangeStatus(0, "", null, "d2", 1)),
                Map.of("d1", "d1:7400", "d2", "d2:7400"));
        Map<String, String> published = Map.of("d1:7400", "localhost:32768", "d2:7400", "localhost:32769");
        try (Connector translated = connector(published::get); Connector plain = connector(null)) {
            assertThat(RouteTable.of(report, translated::member).address("d2")).isEqualTo(Seed.parse(
                    "localhost:32769"));
            assertThat(RouteTable.of(report, plain::member).address("d2")).isEqualTo(Seed.parse("d2:7400"));
            assertThatThrownBy(() -> translated.member("d3:7400")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("no address for d3:7400");
        }
        try (Connector wrong = connector(a -> "nonsense")) {
            assertThatThrownBy(() -> wrong.member("d2:7400")).isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("nonsense");
        }
    }
}
