package io.rocelab.lab.cli;

/** What {@code rocelab decode} counted, and its one-line summary. */
final class DecodeTotals {
    int frames;
    int roce;
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
        return frames + " frames: " + roce + " RoCEv2 (" + icrcGood + " ICRC OK, " + icrcBad + " ICRC bad), "
                + malformed + " malformed, " + arp + " ARP, " + pfc + " PFC/PAUSE, " + other + " other";
    }
}
