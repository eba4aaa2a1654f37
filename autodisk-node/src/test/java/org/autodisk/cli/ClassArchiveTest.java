package org.autodisk.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each local node starts from an archive of its own build, which the JVM writes when there is none; an archive of
 * another build is deleted (the JVM would refuse it and never write it anew); a property turns it off.
 */
class ClassArchiveTest {

    @TempDir
    Path dir;
    /** A class path of jars only (the test's own holds its classes' directories, which the JVM cannot archive). */
    private final String jars = "/nonexistent/a.jar" + java.io.File.pathSeparator + "/nonexistent/b.jar";

    @Test
    void aClassPathWithADirectoryGetsNoArchive() {
        assertThat(ClassArchive.flags("d1", dir, jars + java.io.File.pathSeparator + dir)).isEmpty();
    }

    private static String archiveOf(List<String> flags) {
        return flags.stream().filter(f -> f.startsWith("-XX:SharedArchiveFile=")).findFirst().orElseThrow();
    }

    @Test
    void everyNodeHasAnArchiveOfItsOwnAndTheJvmIsToldToWriteIt() {
        List<String> d1 = ClassArchive.flags("d1", dir, jars);
        assertThat(d1).contains("-XX:+AutoCreateSharedArchive");
        assertThat(archiveOf(d1)).startsWith("-XX:SharedArchiveFile=" + dir).endsWith("-d1.jsa")
                .isEqualTo(archiveOf(ClassArchive.flags("d1", dir, jars)));
        assertThat(archiveOf(ClassArchive.flags("l1", dir, jars))).isNotEqualTo(archiveOf(d1));
    }

    @Test
    void anArchiveOfAnotherBuildIsDeletedAndOnlyThatNodesOwn() throws IOException {
        Path stale = Files.writeString(dir.resolve("0123456789abcdef-d1.jsa"), "old build");
        Path other = Files.writeString(dir.resolve("0123456789abcdef-d2.jsa"), "old build of d2");
        Path current = Path.of(archiveOf(ClassArchive.flags("d1", dir, jars))
                .substring("-XX:SharedArchiveFile=".length()));
        Files.writeString(current, "this build");
        ClassArchive.flags("d1", dir, jars);
        assertThat(stale).doesNotExist();
        assertThat(current).hasContent("this build");
        assertThat(other).exists();
    }

    @Test
    void thePropertyTurnsItOff() {
        String before = System.getProperty(ClassArchive.SWITCH);
        System.setProperty(ClassArchive.SWITCH, "false");
        try {
            assertThat(ClassArchive.flags("d1", dir, jars)).isEmpty();
        } finally {
            if (before == null) {
                System.clearProperty(ClassArchive.SWITCH);
            } else {
                System.setProperty(ClassArchive.SWITCH, before);
            }
        }
    }
}
