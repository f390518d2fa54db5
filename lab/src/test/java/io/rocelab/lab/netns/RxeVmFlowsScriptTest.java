package io.rocelab.lab.netns;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The script a VM of a lab runs: its perftest servers until they listen, then its clients, each on its own port. */
class RxeVmFlowsScriptTest {
    private static final List<RxeVmFlows.Spec> FLOWS = List.of(
        new RxeVmFlows.Spec("to-nic", "vm1", "n1", "10.0.1.1", false, "write", 65536, 100, 18515, 106),
        new RxeVmFlows.Spec("to-vm", "vm1", "vm2", "10.0.1.2", true, "read", 4096, 50, 18516, 0));

    @Test
    void theClientVmRunsEachClientUnderClientRetryAndWritesItsExitCode() {
        assertEquals("""
            ( touch to-nic.started; client-retry 120 ib_write_bw -d rxe0 -F -R -s 65536 -n 100 -p 18515 --tos=106 \
            10.0.1.1 > to-nic.out 2>&1; echo $? > to-nic.rc ) &
            ( touch to-vm.started; client-retry 120 ib_read_bw -d rxe0 -F -R -s 4096 -n 50 -p 18516 10.0.1.2 \
            > to-vm.out 2>&1; echo $? > to-vm.rc ) &
            wait
            """, RxeVmFlows.script("vm1", FLOWS));
    }

    @Test
    void theServerVmStartsItsServerAndWaitsUntilRdmaCmListens() {
        assertEquals("""
            ib_read_bw -d rxe0 -F -R -s 4096 -n 50 -p 18516 > to-vm.server.out 2>&1 &
            n=0; until rdma res show cm_id | grep -q "LISTEN.*:18516 "; do n=$((n+1)); [ $n -gt 300 ] && break; \
            sleep 0.2; done; touch to-vm.ready
            wait
            """, RxeVmFlows.script("vm2", FLOWS));
    }
}
