package org.autodisk.node.cluster;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.net.Socket;
import org.autodisk.core.protocol.Frame;
import org.autodisk.core.protocol.Hello;
import org.autodisk.core.protocol.Opcode;

/** A blocking socket that speaks raw frames, so tests can send what no client library would. */
final class RawConnection implements AutoCloseable {

    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    RawConnection(String hostPort) throws IOException {
        String[] hp = hostPort.split(":");
        socket = new Socket(hp[0], Integer.parseInt(hp[1]));
        socket.setSoTimeout(10_000);
        in = new DataInputStream(socket.getInputStream());
        out = new DataOutputStream(socket.getOutputStream());
    }

    static RawConnection handshaken(String hostPort) throws IOException {
        RawConnection c = new RawConnection(hostPort);
        c.send(Frame.request(Opcode.HELLO, 1, Hello.of(Hello.PeerKind.CLIENT, "raw-test").encode()));
        c.read();
        return c;
    }

    void send(Frame f) throws IOException {
        writeRaw(wire(f));
    }

    static byte[] wire(Frame f) {
        byte[] header = header(f.body().length, f.version(), f.opcode(), f.flags(), f.requestId());
        byte[] out = java.util.Arrays.copyOf(header, header.length + f.body().length);
        System.arraycopy(f.body(), 0, out, header.length, f.body().length);
        return out;
    }

    static byte[] header(int bodyLength, int version, int opcode, int flags, long requestId) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(16);
        b.putInt(Frame.HEADER_BYTES + bodyLength).put((byte) version).put((byte) opcode).put((byte) flags)
                .put((byte) 0).putLong(requestId);
        return b.array();
    }

    void writeRaw(byte[] bytes) throws IOException {
        out.write(bytes);
        out.flush();
    }

    Frame read() throws IOException {
        int length = in.readInt();
        int version = in.readUnsignedByte();
        int opcode = in.readUnsignedByte();
        int flags = in.readUnsignedByte();
        int hops = in.readUnsignedByte();
        long id = in.readLong();
        byte[] body = new byte[length - Frame.HEADER_BYTES];
        in.readFully(body);
        return new Frame(version, opcode, flags, hops, id, body);
    }

    boolean closedByPeer() throws IOException {
        try {
            return in.read() == -1;
        } catch (EOFException e) {
            return true;
        } catch (java.net.SocketException e) {
            return true;
        }
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
