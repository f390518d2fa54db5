package io.rocelab.lab.labfile;

import io.rocelab.nic.cc.DcqcnParams;

/**
 * Every host NIC's settings.
 *
 * @param cc     {@code none} or {@code dcqcn}
 * @param params DCQCN's parameters (mlx5's cc_params), the firmware's defaults unless changed
 */
public record NicSpec(String cc, DcqcnParams params) {
    public boolean dcqcn() {
        return "dcqcn".equals(cc);
    }
}
