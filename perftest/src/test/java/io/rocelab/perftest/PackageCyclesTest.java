package io.rocelab.perftest;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * perftest's packages form layers, no cycle among them: the vocabulary ({@code perftest}) under
 * the wire exchanges ({@code oob}) under the text ({@code report}) and the command line
 * ({@code cli}, {@code pingpong}), under a tool's run ({@code run}), under the soft NIC's data
 * path and launchers ({@code nic}). Each package-info says what its package is.
 */
class PackageCyclesTest {
    private static final JavaClasses PERFTEST = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.rocelab.perftest");

    @Test
    void packagesAreFreeOfCycles() {
        slices().matching("io.rocelab.(**)").should().beFreeOfCycles().check(PERFTEST);
    }
}
