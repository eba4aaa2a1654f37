package org.autodisk.it.containers;

import com.github.dockerjava.api.command.InspectContainerResponse;
import com.github.dockerjava.api.model.Bind;
import com.github.dockerjava.api.model.Volume;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;

/**
 * One AutoDisk node in a container of the image under test. Its network alias is its node id, so peers reach it
 * at {@code ID:7400}; tests reach it at {@link #clientAddress()}. On stop (and on {@link #kill()}) its output is
 * saved to {@code it/target/container-logs/LOGPREFIX-ID.log}.
 */
public class AutoDiskNodeContainer extends GenericContainer<AutoDiskNodeContainer> {

    /** The port every node listens on inside its container. */
    public static final int PORT = 7400;

    private final String nodeId;
    private final String role;
    private String logPrefix = "node";
    private boolean logsSaved;

    /**
     * Configures (does not start) a node container.
     *
     * @param image  the node image
     * @param nodeId the node id, also its network alias
     * @param role   {@code data} or {@code log}
     */
    public AutoDiskNodeContainer(String image, String nodeId, String role) {
        super(DockerImageName.parse(image));
        this.nodeId = nodeId;
        this.role = role;
        withExposedPorts(PORT);
        withNetworkAliases(nodeId);
        withEnv("AUTODISK_NODE_ID", nodeId);
        withEnv("AUTODISK_NODE_LISTEN", "0.0.0.0:" + PORT);
        withEnv("AUTODISK_NODE_DATA_DIR", "/data");
        waitingFor(Wait.forLogMessage(".*" + nodeId + ": serving on .*", 1)
                .withStartupTimeout(Duration.ofMinutes(3)));
    }

    /**
     * Names the node's saved log file {@code PREFIX-ID.log}.
     *
     * @param prefix e.g. the suite's name
     * @return this
     */
    public AutoDiskNodeContainer withLogPrefix(String prefix) {
        this.logPrefix = prefix;
        return this;
    }

    /**
     * Keeps the store in a named Docker volume (created on first use) instead of the container's anonymous one,
     * so that a new container of the same node finds it again.
     *
     * @param volumeName the Docker volume
     * @return this
     */
    public AutoDiskNodeContainer withDataVolume(String volumeName) {
        return withCreateContainerCmdModifier(cmd -> {
            List<Bind> binds = new ArrayList<>();
            if (cmd.getHostConfig().getBinds() != null) {
                binds.addAll(List.of(cmd.getHostConfig().getBinds()));
            }
            binds.add(new Bind(volumeName, new Volume("/data")));
            cmd.getHostConfig().withBinds(binds);
        });
    }

    /** @return the node id */
    public String nodeId() {
        return nodeId;
    }

    /** @return {@code data} or {@code log} */
    public String role() {
        return role;
    }

    /** @return {@code host:port} where a client outside Docker reaches this node */
    public String clientAddress() {
        return getHost() + ":" + getMappedPort(PORT);
    }

    /**
     * Kills the node's process at once ({@code docker kill}, SIGKILL: no shutdown hook, no flush), saves its
     * output and removes the container. Named volumes stay.
     */
    public void kill() {
        getDockerClient().killContainerCmd(getContainerId()).exec();
        saveLogs("killed");
        stop();
    }

    @Override
    protected void containerIsStarted(InspectContainerResponse containerInfo) {
        logsSaved = false;
    }

    @Override
    protected void containerIsStopping(InspectContainerResponse containerInfo) {
        saveLogs(null);
    }

    private void saveLogs(String note) {
        if (logsSaved || getContainerId() == null) {
            return;
        }
        logsSaved = true;
        try {
            String text = getLogs();
            if (note != null) {
                text += "---- container " + note + " by the test ----\n";
            }
            ContainerLogs.save(logPrefix + "-" + nodeId, text);
        } catch (RuntimeException e) {
            System.err.println("[container ITs] could not save the log of " + nodeId + ": " + e);
        }
    }
}
