package io.rocelab.topology.model;

/** A host or a switch: something with a name and ports that links attach to. */
public sealed interface Node permits Host, SwitchNode {
    /** @return the node's name, unique in its topology */
    String name();

    /** @return whether the node has a port called {@code port} */
    boolean hasPort(String port);
}
