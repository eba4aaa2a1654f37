package org.autodisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.autodisk.client.Traced;
import org.autodisk.core.cluster.DirectoryReport;
import org.autodisk.core.protocol.TraceHop;
import org.junit.jupiter.api.Test;

/** What the command line prints says what happened, in the user's words. */
class CliOutputTest {

    @Test
    void anInsertNamesTheOwnerThatStoredItAndTheNodeThatForwardedIt() {
        Traced<Void> forwarded = new Traced<>(null, List.of(new TraceHop("d2", "store", Map.of()),
                new TraceHop("d1", "forward", Map.of())), 1000);
        assertThat(InsertCommand.describe("apple", 3, forwarded, "d1"))
                .isEqualTo("inserted apple (value of 3 bytes): stored by owner d2, forwarded by d1");
        Traced<Void> local = new Traced<>(null, List.of(new TraceHop("d1", "store", Map.of())), 1000);
        assertThat(InsertCommand.describe("apple", 3, local, "d1"))
                .isEqualTo("inserted apple (value of 3 bytes): stored by owner d1");
    }

    @Test
    void theDirectorySummarySaysTheTreesShapeAndTheFanoutItWasCreatedWith() {
        DirectoryReport.IndexPage root = new DirectoryReport.IndexPage(7, 2, "", null, 3, List.of("d1", "d2"), 4, "x");
        DirectoryReport.NodeIndex d1 = new DirectoryReport.NodeIndex("d1", "fat-btree", 1, 2, List.of(root),
                List.of("-inf", "0x15"), null);
        assertThat(DirectoryTable.render(new DirectoryReport("d1", "fat-btree", 12, 2, 1, List.of(d1), 3)))
                .startsWith("fat-btree directory at metadata v12: 2 levels, 1 distinct index pages of up to 3 entries, "
                        + "reported by d1\n");
        assertThat(DirectoryTable.render(new DirectoryReport("d1", "range", 12, 0, 0, List.of())))
                .startsWith("range directory at metadata v12: no index pages (every node holds the whole range map), "
                        + "reported by d1\n");
    }

    @Test
    void durationsScaleTheirUnitSoTheStatusTableStaysAligned() {
        assertThat(StatusTable.duration(850)).isEqualTo("850 us");
        assertThat(StatusTable.duration(12_345)).isEqualTo("12.3 ms");
        assertThat(StatusTable.duration(4_210_000)).isEqualTo("4.21 s");
        assertThat(List.of(0.0, 999.0, 999_949.0, 9_999_000_000.0)).allSatisfy(
                us -> assertThat(StatusTable.duration(us).length()).isLessThanOrEqualTo(9));
    }

    @Test
    void aMissingFileIsNamedWithTheOptionAndWhatIsWrong() {
        Path none = Path.of("/nonexistent");
        IOException e = new NoSuchFileException(none.toString());
        assertThat(CliErrors.unreadable("--value-file", none, e).getMessage())
                .isEqualTo("cannot read --value-file /nonexistent: no such file or directory");
        assertThat(CliErrors.describe(e)).isEqualTo("/nonexistent: no such file or directory");
    }
}
