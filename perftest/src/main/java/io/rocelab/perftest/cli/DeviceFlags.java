package io.rocelab.perftest.cli;

import picocli.CommandLine.Option;

/**
 * perftest's flags, one group of {@link PerftestCommand} (a picocli mixin): the device and its port, the MTU, and where the buffers live (GPU memory, one MR per QP).
 * Values are kept as text, for {@link OptionsValidator} to check with perftest's messages.
 */
final class DeviceFlags {
    @Option(names = {"-d", "--ib-dev"}, order = 1, paramLabel = "<dev>") String ibDev;
    @Option(names = {"-i", "--ib-port"}, order = 2, paramLabel = "<port>") String ibPort;
    @Option(names = {"-m", "--mtu"}, order = 9, paramLabel = "<mtu>") String mtu;
    @Option(names = {"-O", "--dualport"}, order = 32) boolean dualPort;
    @Option(names = "--mr_per_qp", order = 44) boolean mrPerQp;
    @Option(names = "--use_cuda", order = 45, arity = "0..1", paramLabel = "<cuda device id>") String useCuda;
    @Option(names = "--use_cuda_bus_id", order = 46, paramLabel = "<cuda full BUS id>") String useCudaBusId;
    @Option(names = "--use_rocm", order = 47, paramLabel = "<rocm device id>") String useRocm;
}
