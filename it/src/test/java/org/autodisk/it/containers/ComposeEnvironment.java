package org.autodisk.it.containers;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;
import org.testcontainers.containers.ComposeContainer;
import org.testcontainers.containers.ContainerState;
import org.testcontainers.containers.DockerComposeContainer;
import org.testcontainers.lifecycle.Startable;
import org.testcontainers.utility.CommandLine;

/**
 * A compose file brought up by Testcontainers with the local Compose: Compose v2 ({@code docker compose}) when the
 * Docker CLI has it, else docker-compose v1. Images are neither pulled nor built (the test supplies the image),
 * every listed service must become healthy (its Docker health check), and stopping saves each service's log
 * and removes the volumes.
 */
final class ComposeEnvironment implements AutoCloseable {

    private final Startable compose;
    private final Function<String, Optional<ContainerState>> services;
    private final List<String> serviceNames;
    private final String logPrefix;

    private ComposeEnvironment(Startable compose, Function<String, Optional<ContainerState>> services,
            List<String> serviceNames, String logPrefix) {
        this.compose = compose;
        this.services = services;
        this.serviceNames = serviceNames;
        this.logPrefix = logPrefix;
    }

    /**
     * Runs {@code compose up -d} and waits for every service's health check.
     *
     * @param file         the compose file
     * @param env          variables for the compose file
     * @param serviceNames the services to wait for
     * @param logPrefix    saved logs are named {@code PREFIX-SERVICE.log}
     * @return the running environment
     */
    static ComposeEnvironment up(Path file, Map<String, String> env, List<String> serviceNames, String logPrefix) {
        ComposeEnvironment running;
        if (hasComposeV2()) {
            ComposeContainer c = new ComposeContainer("autodiskit", file.toFile()).withEnv(env).withPull(false)
                    .withBuild(false).withRemoveVolumes(true);
            running = new ComposeEnvironment(c, c::getContainerByServiceName, serviceNames, logPrefix);
        } else {
            DockerComposeContainer<?> c = new DockerComposeContainer<>("autodiskit", new File[] {file.toFile()})
                    .withEnv(env).withPull(false).withBuild(false).withRemoveVolumes(true);
            running = new ComposeEnvironment(c, c::getContainerByServiceName, serviceNames, logPrefix);
        }
        long start = System.nanoTime();
        try {
            running.compose.start();
            running.awaitHealthy(Duration.ofMinutes(3));
        } catch (RuntimeException e) {
            running.close();
            throw e;
        }
        System.err.printf("[container ITs] compose up of %s: %s healthy in %.1f s%n", file.getFileName(),
                serviceNames, (System.nanoTime() - start) / 1e9);
        return running;
    }

    /**
     * Polls every service's health once a second (Testcontainers' health wait polls without pause, which on two
     * cores slows the very health checks it waits for).
     */
    private void awaitHealthy(Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        List<String> waiting = new ArrayList<>(serviceNames);
        while (true) {
            waiting.removeIf(name -> services.apply(name).map(ContainerState::isHealthy).orElse(false));
            if (waiting.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("services " + waiting + " not healthy within " + timeout
                        + "; their logs go to " + ContainerLogs.directory());
            }
            try {
                Thread.sleep(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while waiting for " + waiting, e);
            }
        }
    }

    /**
     * One service's container.
     *
     * @param name the service
     * @return its container
     */
    ContainerState service(String name) {
        return services.apply(name).orElseThrow(() -> new IllegalStateException("no running service " + name));
    }

    /**
     * Runs the local Compose CLI on this environment's project, e.g. to start or remove a service of a profile that
     * {@code up} left out.
     *
     * @param file the compose file
     * @param env  variables for the compose file
     * @param args the Compose arguments after {@code -p PROJECT -f FILE}
     * @return what Compose printed
     */
    String cli(Path file, Map<String, String> env, List<String> args) {
        String project = service(serviceNames.get(0)).getCurrentContainerInfo().getConfig().getLabels()
                .get("com.docker.compose.project");
        List<String> command = new ArrayList<>(hasComposeV2() ? List.of("docker", "compose")
                : List.of("docker-compose"));
        command.addAll(List.of("-p", project, "-f", file.toString()));
        command.addAll(args);
        try {
            ProcessBuilder b = new ProcessBuilder(command).redirectErrorStream(true);
            b.environment().putAll(env);
            Process p = b.start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            if (!p.waitFor(3, TimeUnit.MINUTES) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " failed: " + out);
            }
            return out;
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: " + command, e);
        }
    }

    @Override
    public void close() {
        for (String name : serviceNames) {
            try {
                services.apply(name).ifPresent(s -> ContainerLogs.save(logPrefix + "-" + name, s.getLogs()));
            } catch (RuntimeException e) {
                System.err.println("[container ITs] could not save the log of " + name + ": " + e);
            }
        }
        compose.stop();
    }

    /**
     * Tells why compose files cannot be run here, if so.
     *
     * @return the problem, or empty when Compose v2 or docker-compose v1 is installed
     */
    static Optional<String> unavailable() {
        if (hasComposeV2() || CommandLine.executableExists("docker-compose")) {
            return Optional.empty();
        }
        return Optional.of("neither `docker compose` (v2) nor `docker-compose` (v1) is installed");
    }

    private static boolean hasComposeV2() {
        try {
            Process p = new ProcessBuilder("docker", "compose", "version").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!p.waitFor(20, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return false;
            }
            return p.exitValue() == 0;
        } catch (java.io.IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }
}
