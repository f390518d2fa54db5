package io.rocelab.sw.views;

import java.math.BigInteger;
import java.util.Comparator;

/**
 * The order sonic-utilities sorts its tables' keys in (python's {@code natsort}): runs of digits
 * compare as numbers, so Ethernet4 comes before Ethernet12 and map_100_Vlan10 before map_1000_Vlan100;
 * everything else compares character by character.
 */
public final class NaturalOrder implements Comparator<String> {
    /** The one instance: the order has no state. */
    public static final NaturalOrder INSTANCE = new NaturalOrder();

    private NaturalOrder() {
    }

    @Override
    public int compare(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            char x = a.charAt(i);
            char y = b.charAt(j);
            if (Character.isDigit(x) && Character.isDigit(y)) {
                int si = i;
                int sj = j;
                while (i < a.length() && Character.isDigit(a.charAt(i))) {
                    i++;
                }
                while (j < b.length() && Character.isDigit(b.charAt(j))) {
                    j++;
                }
                int c = new BigInteger(a.substring(si, i)).compareTo(new BigInteger(b.substring(sj, j)));
                if (c != 0) {
                    return c;
                }
            } else {
                if (x != y) {
                    return Character.compare(x, y);
                }
                i++;
                j++;
            }
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
