package org.autodisk.it.containers;

import com.github.dockerjava.api.exception.NotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.images.builder.ImageFromDockerfile;

/**
 * The node image under test, built once per test run from {@code docker/Dockerfile} with the jar and lib/ of
 * {@code autodisk-node/target} (so the reactor's package phase must have run). The base image is
 * {@value #LOCAL_BASE_IMAGE} when that image exists (hosts without a registry; see
 * {@code docker/build-base-image.sh}), else the Dockerfile's default; {@code AUTODISK_IT_BASE_IMAGE} (environment
 * or system property) overrides both.
 */
public final class AutoDiskImage {

    /** The base image {@code docker/build-base-image.sh} creates. */
    public static final String LOCAL_BASE_IMAGE = "autodisk/jre-base:local";

    /** The tag of the image under test; kept after the run so the next build reuses its layers. */
    public static final String TAG = "autodisk:it";

    private static String built;

    private AutoDiskImage() {
    }

    /**
     * Builds the image on first use.
     *
     * @return the image name to run
     */
    public static synchronized String name() {
        if (built == null) {
            built = build();
        }
        return built;
    }

    /**
     * Finds the repository root: the nearest directory upwards from the working directory that has
     * {@code docker/Dockerfile}.
     *
     * @return the root
     */
    public static Path repositoryRoot() {
        for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
            if (Files.isRegularFile(p.resolve("docker/Dockerfile"))) {
                return p;
            }
        }
        throw new IllegalStateException("no docker/Dockerfile above " + Path.of("").toAbsolutePath());
    }

    private static String build() {
        Path root = repositoryRoot();
        Path target = root.resolve("autodisk-node/target");
        Path jar = nodeJar(target);
        String base = baseImage();
        ImageFromDockerfile image = new ImageFromDockerfile(TAG, false)
                .withDockerfilePath("docker/Dockerfile")
                .withFileFromPath("docker/Dockerfile", root.resolve("docker/Dockerfile"))
                .withFileFromPath("docker/entrypoint.sh", root.resolve("docker/entrypoint.sh"))
                .withFileFromPath("docker/healthcheck.sh", root.resolve("docker/healthcheck.sh"))
                .withFileFromPath("autodisk-node/target/lib", target.resolve("lib"))
                .withFileFromPath("autodisk-node/target/" + jar.getFileName(), jar);
        if (base != null) {
            image.withBuildArg("BASE_IMAGE", base);
        }
        long start = System.nanoTime();
        try {
            String name = image.get();
            System.err.printf("[container ITs] built image %s from docker/Dockerfile (base %s) in %.1f s%n", name,
                    base == null ? "the Dockerfile's default" : base, (System.nanoTime() - start) / 1e9);
            return name;
        } catch (RuntimeException e) {
            throw new IllegalStateException("building " + TAG + " from docker/Dockerfile failed (base image "
                    + (base == null ? "the Dockerfile's default" : base) + ")", e);
        }
    }

    private static Path nodeJar(Path target) {
        if (!Files.isDirectory(target.resolve("lib"))) {
            throw new IllegalStateException(target.resolve("lib") + " is missing: run the build up to `package` "
                    + "(./mvnw verify does) before the container suites");
        }
        try (Stream<Path> files = Files.list(target)) {
            List<Path> jars = files.filter(p -> p.getFileName().toString().matches("autodisk-node-.*\\.jar"))
                    .filter(p -> !p.getFileName().toString().matches(".*-(tests|sources|javadoc)\\.jar"))
                    .toList();
            if (jars.size() != 1) {
                throw new IllegalStateException("expected one node jar in " + target + ", found " + jars);
            }
            return jars.get(0);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String baseImage() {
        String configured = System.getProperty("AUTODISK_IT_BASE_IMAGE", System.getenv("AUTODISK_IT_BASE_IMAGE"));
        if (configured != null && !configured.isBlank()) {
            return configured;
        }
        try {
            DockerClientFactory.instance().client().inspectImageCmd(LOCAL_BASE_IMAGE).exec();
            return LOCAL_BASE_IMAGE;
        } catch (NotFoundException e) {
            return null;
        }
    }
}
