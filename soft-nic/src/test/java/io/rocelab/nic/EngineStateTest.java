package io.rocelab.nic;

import static com.tngtech.archunit.core.domain.JavaAccess.Predicates.targetOwner;
import static com.tngtech.archunit.core.domain.JavaClass.Predicates.equivalentTo;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The QP's transport engines keep their state to themselves, as rxe's {@code struct rxe_qp} keeps
 * {@code req}, {@code resp} and {@code comp} apart: only the requester holds a {@link RequesterInfo},
 * only the responder a {@link ResponderInfo}, only the completer a {@link CompleterInfo}; no class
 * reads or writes another's fields, an engine's or the QP's, but goes through their methods.
 */
class EngineStateTest {
    private static final JavaClasses NIC = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("io.rocelab.nic");

    @Test
    void eachEngineStateIsUsedByItsEngineOnly() {
        noClasses().that().doNotBelongToAnyOf(Requester.class, RequesterInfo.class)
                .should().dependOnClassesThat().belongToAnyOf(RequesterInfo.class)
                .check(NIC);
        noClasses().that().doNotBelongToAnyOf(Responder.class, ResponderInfo.class)
                .should().dependOnClassesThat().belongToAnyOf(ResponderInfo.class)
                .check(NIC);
        noClasses().that().doNotBelongToAnyOf(Completer.class, CompleterInfo.class)
                .should().dependOnClassesThat().belongToAnyOf(CompleterInfo.class)
                .check(NIC);
    }

    @Test
    void noClassTouchesAnEnginesOrTheQueuePairsFields() {
        for (Class<?> owner : new Class<?>[] {Requester.class, Responder.class, Completer.class, QueuePair.class}) {
            noClasses().that().doNotBelongToAnyOf(owner)
                    .should().accessFieldWhere(targetOwner(equivalentTo(owner)))
                    .check(NIC);
        }
    }
}
