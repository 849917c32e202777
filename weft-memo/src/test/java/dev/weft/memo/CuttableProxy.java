package dev.weft.memo;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP relay on the loopback to a real server that lets a number of connections through and then
 * cuts every other one (closes it unanswered): a server going down in the middle of a sync. Radicale
 * answers one request per connection, so a connection is a request. Thread-safe.
 */
final class CuttableProxy implements AutoCloseable {
    private final ServerSocket listener;
    private final int targetPort;
    private final AtomicInteger allowed = new AtomicInteger(Integer.MAX_VALUE);
    private final Thread acceptor;

    CuttableProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = Thread.ofPlatform().daemon().name("cuttable-proxy").start(this::accept);
    }

    /** The server's root through the relay. */
    URI url() {
        return URI.create("http://127.0.0.1:" + listener.getLocalPort() + "/");
    }

    /** Lets {@code connections} more through, then cuts every one after them. */
    void cutAfter(int connections) {
        allowed.set(connections);
    }

    /** Lets every connection through again. */
    void heal() {
        allowed.set(Integer.MAX_VALUE);
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                if (allowed.getAndDecrement() <= 0) {
                    client.close();
                    continue;
                }
                Socket server = new Socket(InetAddress.getLoopbackAddress(), targetPort);
                pipe(client, server);
                pipe(server, client);
            } catch (IOException e) {
                // closed, or the server is down: the client sees its connection end
            }
        }
    }

    private static void pipe(Socket from, Socket to) {
        Thread.ofVirtual().start(() -> {
            try (InputStream in = from.getInputStream();
                    OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException e) {
                // one side closed
            } finally {
                try {
                    to.shutdownOutput();
                } catch (IOException ignored) {
                    // already closed
                }
            }
        });
    }

    @Override
    public void close() throws IOException {
        listener.close();
        acceptor.interrupt();
    }
}
