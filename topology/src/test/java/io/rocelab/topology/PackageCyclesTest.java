package io.rocelab.topology;

import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * No package of the topology module (io.rocelab.topology.*) uses another that uses it back, as the modules depend one way
 * (docs/design.md §2): each package can be read, and changed, with only the packages below it in
 * mind. Checked on the compiled main classes, so an import that is only in a comment does not count.
 */
class PackageCyclesTest {

    @Test
    void packagesDependOneWay() {
        JavaClasses classes = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.rocelab.topology");
        slices().matching("io.rocelab.(**)").should().beFreeOfCycles().check(classes);
    }
}
