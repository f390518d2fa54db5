/**
 * LLDP on every port of the switch, as SONiC runs lldpd on every front-panel port: the settings
 * read from {@code config_db} ({@link io.rocelab.sw.lldp.LldpTables}: {@code FEATURE|lldp},
 * {@code PORT} alias and description, {@code MGMT_INTERFACE}), an agent per port
 * ({@link io.rocelab.sw.lldp.SwitchLldp}, the DCBX TLVs from {@link io.rocelab.sw.dcbx.SwitchDcbx}),
 * and the views ({@link io.rocelab.sw.lldp.LldpViews}: lldpctl's neighbours, lldpshow's table,
 * the counters).
 */
package io.rocelab.sw.lldp;
