package org.autodisk.it.containers;

import java.io.IOException;
import java.util.List;
import org.autodisk.bench.faults.FaultKind;
import org.autodisk.bench.faults.FaultRun;
import org.autodisk.bench.faults.FaultTarget;
import org.testcontainers.containers.Container;

/**
 * The fault suite's faults on a container cluster: {@code docker kill} and {@code docker start} (same container, same
 * data, same published port), {@code docker pause}/{@code unpause}, {@code docker network disconnect}/{@code connect},
 * and the hook files of {@code fault.hooks-dir} written by {@code docker exec} (the nodes must run with it set to
 * {@link FaultRun#HOOKS_DIR}).
 */
final class ContainerFaultTarget implements FaultTarget {

    private final ContainerCluster cluster;
    private final List<String> ids;
    private final List<String> seeds;

    /**
     * @param cluster a cluster started with fixed host ports ({@link ClusterTopology.Builder#hostPorts})
     */
    ContainerFaultTarget(ContainerCluster cluster) {
        if (cluster.topology().hostPortBase() == 0) {
            throw new IllegalArgumentException("a fault run needs fixed host ports: a restarted container must be "
                    + "reached where it was");
        }
        this.cluster = cluster;
        this.ids = cluster.topology().nodeIds();
        this.seeds = cluster.topology().dataNodes().stream().map(id -> cluster.node(id).clientAddress()).toList();
    }

    @Override
    public List<String> ids() {
        return ids;
    }

    @Override
    public int dataNodes() {
        return seeds.size();
    }

    @Override
    public List<String> seeds() {
        return seeds;
    }

    @Override
    public boolean supports(FaultKind kind) {
        return !kind.ofLink() && !kind.fillsFileSystem();
    }

    @Override
    public void kill(int node) {
        cluster.crash(ids.get(node));
    }

    @Override
    public void restart(int node) {
        cluster.startAgain(ids.get(node));
    }

    @Override
    public void pause(int node) {
        cluster.pause(ids.get(node));
    }

    @Override
    public void resume(int node) {
        cluster.unpause(ids.get(node));
    }

    @Override
    public void isolate(int node) {
        cluster.disconnect(ids.get(node));
    }

    @Override
    public void reconnect(int node) {
        cluster.connect(ids.get(node));
    }

    @Override
    public void hook(int node, String file, String content) throws IOException {
        String dir = "/data/" + ids.get(node) + "/" + FaultRun.HOOKS_DIR;
        exec(node, "mkdir -p " + dir + " && printf %s \"$1\" > " + dir + "/" + file + ".tmp && mv " + dir + "/" + file
                + ".tmp " + dir + "/" + file, content);
    }

    @Override
    public void unhook(int node, String file) throws IOException {
        exec(node, "rm -f /data/" + ids.get(node) + "/" + FaultRun.HOOKS_DIR + "/" + file, "");
    }

    private void exec(int node, String script, String arg) throws IOException {
        try {
            Container.ExecResult r = cluster.node(ids.get(node)).execInContainer("sh", "-c", script, "sh", arg);
            if (r.getExitCode() != 0) {
                throw new IOException(ids.get(node) + ": `" + script + "` exited " + r.getExitCode() + ": "
                        + r.getStderr());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted in " + ids.get(node) + ": " + script, e);
        }
    }

    @Override
    public String toString() {
        return "containers " + cluster.topology();
    }
}
