package io.rocelab.nic;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The soft NIC's packages import one way only: the device ({@code io.rocelab.nic}) uses its
 * transmit side ({@code nic.egress}), its network layer ({@code nic.net}: addresses, ARP,
 * neighbour discovery), its congestion control ({@code nic.cc}) and its counters
 * ({@code nic.stats}); the connection manager ({@code nic.cm}) uses the device's verbs. None of
 * them reaches back, so each can be read, tested and changed without the ones above it.
 */
class PackageCyclesTest {
    @Test
    void softNicPackagesAreFreeOfCycles() {
        JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.rocelab.nic");
        slices().matching("io.rocelab.(**)").should().beFreeOfCycles().check(classes);
    }
}
