package io.rocelab.sw.config;

/**
 * What SONiC's {@code QUEUE} and {@code BUFFER_QUEUE} tables say about one egress queue.
 *
 * @param scheduler the scheduler, {@link SchedulerConfig#DEFAULT} when unset
 * @param wred      the WRED/ECN profile, or null
 * @param buffer    the egress buffer profile (its {@code static_th}/{@code dynamic_th} caps a lossy queue), or null
 */
public record QueueConfig(SchedulerConfig scheduler, WredProfile wred, BufferProfile buffer) {

    /** A queue with nothing configured. */
    public static final QueueConfig DEFAULT = new QueueConfig(SchedulerConfig.DEFAULT, null, null);
}
