package io.rocelab.lab.check;

import java.util.List;

/** One of the lossless checks: reads a fabric and adds what it finds. */
public interface FabricCheck {
    /**
     * @param fabric the fabric
     * @param out    where the findings go, in the order a user should read them
     */
    void check(FabricView fabric, List<Finding> out);
}
