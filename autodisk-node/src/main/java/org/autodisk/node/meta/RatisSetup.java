package org.autodisk.node.meta;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.apache.ratis.RaftConfigKeys;
import org.apache.ratis.client.RaftClient;
import org.apache.ratis.conf.RaftProperties;
import org.apache.ratis.netty.NettyConfigKeys;
import org.apache.ratis.proto.RaftProtos.RaftPeerRole;
import org.apache.ratis.protocol.RaftGroup;
import org.apache.ratis.protocol.RaftGroupId;
import org.apache.ratis.protocol.RaftPeer;
import org.apache.ratis.protocol.RaftClientReply;
import org.apache.ratis.protocol.RaftPeerId;
import org.apache.ratis.protocol.SetConfigurationRequest;
import org.apache.ratis.retry.RetryPolicies;
import org.apache.ratis.rpc.SupportedRpcType;
import org.apache.ratis.server.RaftServer;
import org.apache.ratis.server.RaftServerConfigKeys;
import org.apache.ratis.server.storage.RaftStorage;
import org.apache.ratis.util.SizeInBytes;
import org.apache.ratis.util.TimeDuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * How a node's metadata replica is set up on Ratis: its group (id and peers), the properties of its server and of
 * its clients, and the server itself, built over the storage it recovers from.
 */
final class RatisSetup {

    private static final Logger LOG = LoggerFactory.getLogger(RatisSetup.class);
    static final long RETRY_SLEEP_MS = 200;
    private static final String GROUP_FILE = "group-id";

    private RatisSetup() {
    }

    /** The group: its id (kept in the storage directory) and every member's replica. */
    static RaftGroup group(MetadataSettings s) throws IOException {
        return RaftGroup.valueOf(groupId(s), peers(s));
    }

    /** A server of the group over the state machine, recovering its log and snapshots from the storage directory. */
    static RaftServer server(MetadataSettings s, RaftGroup group, MetaStateMachine machine) throws IOException {
        return RaftServer.newBuilder().setServerId(RaftPeerId.valueOf(s.nodeId())).setGroup(group)
                .setProperties(serverProperties(s)).setStateMachine(machine)
                .setOption(RaftStorage.StartupOption.RECOVER).build();
    }

    static RaftClient newClient(MetadataSettings s, RaftGroup group) {
        return newClient(s, group, (int) Math.max(1, s.requestTimeout().toMillis() / RETRY_SLEEP_MS));
    }

    static RaftClient newClient(MetadataSettings s, RaftGroup group, int retries) {
        return RaftClient.newBuilder().setProperties(clientProperties(s)).setRaftGroup(group)
                .setRetryPolicy(RetryPolicies.retryUpToMaximumCountWithFixedSleep(retries,
                        TimeDuration.valueOf(RETRY_SLEEP_MS, TimeUnit.MILLISECONDS))).build();
    }

    static List<RaftPeer> peers(MetadataSettings s) {
        return s.peers().stream().map(p -> RaftPeer.newBuilder().setId(p.id()).setAddress(p.address())
                .setStartupRole(p.voter() ? RaftPeerRole.FOLLOWER : RaftPeerRole.LISTENER).build()).toList();
    }

    /**
     * The Raft group id: derived from the cluster secret at the first start and kept in the storage directory, so
     * that a later change of the secret does not orphan the stored metadata.
     */
    private static RaftGroupId groupId(MetadataSettings s) throws IOException {
        Path file = s.dir().resolve(GROUP_FILE);
        if (Files.exists(file)) {
            return RaftGroupId.valueOf(UUID.fromString(Files.readString(file).trim()));
        }
        UUID id = UUID.nameUUIDFromBytes(s.secret() == null ? "autodisk-metadata".getBytes(StandardCharsets.UTF_8)
                : hmac(s.secret(), "autodisk-metadata-group"));
        Files.writeString(file, id + "\n");
        return RaftGroupId.valueOf(id);
    }

    private static byte[] hmac(String secret, String label) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(secret.getBytes(StandardCharsets.UTF_8), "HmacSHA256"));
            return mac.doFinal(label.getBytes(StandardCharsets.UTF_8));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is not available", e);
        }
    }

    private static RaftProperties serverProperties(MetadataSettings s) {
        RaftProperties p = clientProperties(s);
        NettyConfigKeys.Server.setHost(p, s.bindHost());
        NettyConfigKeys.Server.setPort(p, s.port());
        NettyConfigKeys.Server.setUseEpoll(p, false);
        RaftServerConfigKeys.setStorageDir(p, List.of(s.dir().toFile()));
        TimeDuration min = TimeDuration.valueOf(s.electionTimeout().toMillis(), TimeUnit.MILLISECONDS);
        RaftServerConfigKeys.Rpc.setTimeoutMin(p, min);
        RaftServerConfigKeys.Rpc.setTimeoutMax(p, min.multiply(2));
        // read-only queries stay DEFAULT (the leader's state machine answers); see docs/durability.md, "Truncation", on
        // the LINEARIZABLE option (ReadIndex) tried first
        RaftServerConfigKeys.Snapshot.setAutoTriggerEnabled(p, true);
        RaftServerConfigKeys.Snapshot.setAutoTriggerThreshold(p, s.snapshotEvery());
        RaftServerConfigKeys.Snapshot.setRetentionFileNum(p, 2);
        RaftServerConfigKeys.Log.setPurgeUptoSnapshotIndex(p, true);
        RaftServerConfigKeys.Log.setPurgeGap(p, (int) Math.max(1, Math.min(1024, s.snapshotEvery())));
        RaftServerConfigKeys.Log.setSegmentSizeMax(p, SizeInBytes.valueOf(s.logSegmentBytes()));
        RaftServerConfigKeys.Log.setPreallocatedSize(p, SizeInBytes.valueOf(Math.min(64 << 10, s.logSegmentBytes())));
        // Ratis's pause monitor wakes every threshold to look for JVM pauses; a pause shorter than the election
        // timeout does not matter to Raft, so it need not look more often (the default wakes it every 300 ms)
        RaftServerConfigKeys.setSleepDeviationThreshold(p, (int) Math.max(300, s.electionTimeout().toMillis()));
        return p;
    }

    private static RaftProperties clientProperties(MetadataSettings s) {
        RaftProperties p = new RaftProperties();
        RaftConfigKeys.Rpc.setType(p, SupportedRpcType.NETTY);
        RaftServerConfigKeys.Rpc.setRequestTimeout(p, TimeDuration.valueOf(
                Math.max(1000, s.electionTimeout().toMillis() * 3), TimeUnit.MILLISECONDS));
        return p;
    }

    /**
     * Asks the group's leader to add this replica as a listener (Raft's configuration change, through Ratis's
     * {@code setConfiguration}): the leader then sends it the log, or a snapshot of the state. The change compares
     * the group's configuration with the voters and listeners the seed reported, so that a concurrent change is never
     * overwritten (Ratis 3.3.0's ADD mode drops the listeners already there, so it is not used); a replica that is a
     * listener already changes nothing.
     */
    static void joinGroup(MetadataSettings s, RaftClient client) throws IOException {
        List<RaftPeer> all = peers(s);
        List<RaftPeer> voters = all.stream().filter(p -> s.voters().contains(p.getId().toString())).toList();
        List<RaftPeer> withSelf = all.stream().filter(p -> !voters.contains(p)).toList();
        List<RaftPeer> others = withSelf.stream().filter(p -> !p.getId().toString().equals(s.nodeId())).toList();
        long deadline = System.nanoTime() + s.requestTimeout().toNanos();
        String last = "";
        while (System.nanoTime() < deadline) {
            for (List<RaftPeer> current : List.of(withSelf, others)) {
                try {
                    RaftClientReply reply = client.admin().setConfiguration(SetConfigurationRequest.Arguments
                            .newBuilder().setMode(SetConfigurationRequest.Mode.COMPARE_AND_SET)
                            .setServersInCurrentConf(voters).setListenersInCurrentConf(current)
                            .setServersInNewConf(voters).setListenersInNewConf(withSelf).build());
                    if (reply.isSuccess()) {
                        LOG.info("{}: the metadata group has this replica as a listener: voters {}, listeners {}",
                                s.nodeId(), voters, withSelf);
                        return;
                    }
                    last = String.valueOf(reply.getException());
                } catch (IOException e) {
                    last = e.toString();
                }
            }
            sleep(RETRY_SLEEP_MS);
        }
        throw new IOException("the metadata group did not add this replica as a listener within "
                + s.requestTimeout().toMillis() + " ms; its configuration should be the voters " + voters + " with "
                + "the listeners " + others + " (another node joining at the same time?): " + last);
    }

    private static void sleep(long ms) throws IOException {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new java.io.InterruptedIOException("interrupted while joining the metadata group");
        }
    }
}
