package io.rocelab.lab.netns;

/** The Linux network could not be set up or used as a netns run needs; the message is one line for the user. */
public final class NetnsException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    public NetnsException(String message) {
        super(message);
    }

    public NetnsException(String message, Throwable cause) {
        super(message, cause);
    }
}
