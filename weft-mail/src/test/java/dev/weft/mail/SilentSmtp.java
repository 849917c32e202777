package dev.weft.mail;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An SMTP relay on a free port in front of a real server (GreenMail) that can fall silent at the worst
 * moment: when a mail's DATA ends. {@link Mode#DELIVER_THEN_SILENT} passes the final dot on (the server
 * takes the mail) and swallows the server's answer; {@link Mode#HOLD_SILENT} keeps the dot and answers
 * nothing (the mail never arrives, and the client cannot tell). Each connection keeps the mode it
 * started with. Thread-safe.
 */
public final class SilentSmtp implements AutoCloseable {
    public enum Mode {
        PASS,
        DELIVER_THEN_SILENT,
        HOLD_SILENT
    }

    private final ServerSocket listener;
    private final int target;
    private volatile Mode mode;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final AtomicInteger dataEnds = new AtomicInteger();

    public SilentSmtp(int targetPort, Mode mode) throws IOException {
        this.listener = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.target = targetPort;
        this.mode = mode;
        Thread.ofVirtual().name("silent-smtp").start(this::accept);
    }

    public int port() {
        return listener.getLocalPort();
    }

    public void mode(Mode mode) {
        this.mode = mode;
    }

    /** How many mails' DATA reached their final dot here, on any connection. */
    public int dataEnds() {
        return dataEnds.get();
    }

    private void accept() {
        while (!listener.isClosed()) {
            try {
                Socket client = listener.accept();
                Socket server = new Socket(InetAddress.getLoopbackAddress(), target);
                sockets.add(client);
                sockets.add(server);
                Mode now = mode;
                AtomicBoolean mute = new AtomicBoolean();
                Thread.ofVirtual().start(() -> serverToClient(server, client, mute));
                Thread.ofVirtual().start(() -> clientToServer(client, server, mute, now));
            } catch (IOException e) {
                return;
            }
        }
    }

    private static void serverToClient(Socket server, Socket client, AtomicBoolean mute) {
        try (InputStream in = server.getInputStream()) {
            OutputStream out = client.getOutputStream();
            byte[] buffer = new byte[8192];
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (!mute.get()) {
                    out.write(buffer, 0, n);
                    out.flush();
                }
            }
        } catch (IOException e) {
            // either side closed: the relay ends
        } finally {
            closeQuietly(client);
        }
    }

    private void clientToServer(Socket client, Socket server, AtomicBoolean mute, Mode mode) {
        try (InputStream in = new BufferedInputStream(client.getInputStream())) {
            OutputStream out = server.getOutputStream();
            ByteArrayOutputStream line = new ByteArrayOutputStream();
            boolean inData = false;
            int b;
            while ((b = in.read()) >= 0) {
                line.write(b);
                if (b != '\n') {
                    continue;
                }
                String text = line.toString(StandardCharsets.ISO_8859_1);
                boolean forward = true;
                if (!inData && text.trim().equalsIgnoreCase("DATA")) {
                    inData = true;
                } else if (inData && text.equals(".\r\n")) {
                    inData = false;
                    dataEnds.incrementAndGet();
                    if (mode != Mode.PASS) {
                        mute.set(true);
                        forward = mode == Mode.DELIVER_THEN_SILENT;
                    }
                } else if (mute.get() && mode == Mode.HOLD_SILENT) {
                    forward = false;
                }
                if (forward) {
                    line.writeTo(out);
                    out.flush();
                }
                line.reset();
            }
        } catch (IOException e) {
            // either side closed: the relay ends
        } finally {
            closeQuietly(server);
        }
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException ignored) {
            // closing: nothing left to lose
        }
    }

    @Override
    public void close() throws IOException {
        listener.close();
        sockets.forEach(SilentSmtp::closeQuietly);
    }
}
