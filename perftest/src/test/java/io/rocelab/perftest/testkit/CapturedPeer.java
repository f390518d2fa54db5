package io.rocelab.perftest.testkit;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Stands in for one side of a captured out-of-band exchange: writes that side's captured segments
 * and, where the capture shows the other side writing, reads exactly as many bytes from the
 * program under test, in capture order. A program that writes one message too many, too few or of
 * another size makes it time out or find bytes left over.
 */
public final class CapturedPeer {
    private final TcpConversation conversation;
    private final boolean asClient;

    public CapturedPeer(TcpConversation conversation, boolean asClient) {
        this.conversation = conversation;
        this.asClient = asClient;
    }

    private record Event(int frame, boolean mine, byte[] data) {
    }

    /**
     * Plays the capture over the socket.
     *
     * @return what the program under test sent, message by message
     */
    public List<byte[]> play(Socket socket) throws IOException {
        List<Event> events = new ArrayList<>();
        conversation.clientSegments.forEach(s -> events.add(new Event(s.frameNumber(), asClient, s.data())));
        conversation.serverSegments.forEach(s -> events.add(new Event(s.frameNumber(), !asClient, s.data())));
        events.sort(Comparator.comparingInt(Event::frame));
        socket.setSoTimeout(10_000);
        InputStream in = socket.getInputStream();
        OutputStream out = socket.getOutputStream();
        List<byte[]> received = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            Event e = events.get(i);
            if (e.mine()) {
                try {
                    out.write(e.data());
                    out.flush();
                } catch (SocketException closed) {
                    // the program may close as soon as it wrote its "done", as perftest does
                    if (!lastOfTheirs(events, i)) {
                        throw closed;
                    }
                }
            } else {
                received.add(in.readNBytes(e.data().length));
                if (received.get(received.size() - 1).length != e.data().length) {
                    throw new AssertionError("the program closed before sending message " + received.size() + " ("
                            + e.data().length + " bytes, frame " + e.frame() + ")");
                }
            }
        }
        expectEnd(in);
        return received;
    }

    private static boolean lastOfTheirs(List<Event> events, int from) {
        return events.subList(from, events.size()).stream().allMatch(Event::mine);
    }

    private static void expectEnd(InputStream in) throws IOException {
        try {
            int b = in.read();
            if (b != -1) {
                throw new AssertionError("the program sent more than the real peer did");
            }
        } catch (SocketException reset) {
            // closed with our last message unread: perftest's sides do that too
        } catch (SocketTimeoutException silent) {
            throw new AssertionError("the program neither closed nor sent anything after the last message");
        }
    }
}
