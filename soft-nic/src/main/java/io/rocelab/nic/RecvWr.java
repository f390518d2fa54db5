package io.rocelab.nic;

import java.util.Objects;

/** A receive work request ({@code struct ibv_recv_wr}). */
public record RecvWr(long wrId, Sge... sgl) {
    public RecvWr {
        Objects.requireNonNull(sgl, "sgl");
        for (Sge s : sgl) {
            Objects.requireNonNull(s, "sgl element");
        }
        sgl = sgl.clone();
    }

    long totalLength() {
        long n = 0;
        for (Sge s : sgl) {
            n += s.length();
        }
        return n;
    }
}
