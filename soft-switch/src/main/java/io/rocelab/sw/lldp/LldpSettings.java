package io.rocelab.sw.lldp;

import java.util.Map;

/**
 * What a switch's LLDP says of itself, from {@code config_db} as SONiC's lldp container takes it
 * (sonic-buildimage {@code dockers/docker-lldp}: {@code lldpd.conf.j2} and {@code lldpmgrd}):
 * the system name is {@code DEVICE_METADATA|localhost hostname}; each port's ID is locally
 * assigned ({@code portidsubtype local}) and is its {@code PORT alias}, or its name without one;
 * its description is its {@code PORT description} (else its name, as lldpd takes the interface's);
 * the management address is {@code MGMT_INTERFACE}'s IPv4 one. {@code FEATURE|lldp state disabled}
 * turns LLDP off.
 *
 * @param enabled           LLDP runs ({@code FEATURE|lldp state} not {@code disabled})
 * @param aliases           port name to {@code alias}, for those that have one
 * @param descriptions      port name to {@code description}, for those that have one
 * @param managementIpv4    {@code MGMT_INTERFACE}'s IPv4 address, or null
 * @param hwsku             {@code DEVICE_METADATA|localhost hwsku}, or null
 */
public record LldpSettings(boolean enabled, Map<String, String> aliases, Map<String, String> descriptions,
                           String managementIpv4, String hwsku) {
    /** LLDP on, nothing beyond the switch's own configuration. */
    public static final LldpSettings DEFAULT = new LldpSettings(true, Map.of(), Map.of(), null, null);

    public LldpSettings {
        aliases = Map.copyOf(aliases);
        descriptions = Map.copyOf(descriptions);
    }
}
