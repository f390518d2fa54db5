package io.rocelab.lab.cli;

/** What {@code rocelab decode} counted, and its one-line summary. */
final class DecodeTotals {
    int frames;
    int roce;
    /** Of {@link #roce}, the RoCEv1 frames (EtherType 0x8915); named in the line only when there are some. */
    int roceV1;
    int icrcGood;
    int icrcBad;
    int malformed;
    int arp;
    int pfc;
    int other;

    boolean allRoceGood() {
        return icrcBad == 0 && malformed == 0;
    }

    String describe() {
        String kinds = roceV1 == 0 ? roce + " RoCEv2 (" : (roce - roceV1) + " RoCEv2 and " + roceV1 + " RoCEv1 (";
        return frames + " frames: " + kinds + icrcGood + " ICRC OK, " + icrcBad + " ICRC bad), "
                + malformed + " malformed, " + arp + " ARP, " + pfc + " PFC/PAUSE, " + other + " other";
    }
}
