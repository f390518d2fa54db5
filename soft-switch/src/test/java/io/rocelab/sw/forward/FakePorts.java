package io.rocelab.sw.forward;

/** Ports whose queues, bytes sent, line rates and link states a test sets. */
final class FakePorts implements PortView {
    final long[] queued;
    final long[] sent;
    final long[] speed;
    final boolean[] down;

    FakePorts(int n, long speedBitsPerSecond) {
        queued = new long[n];
        sent = new long[n];
        speed = new long[n];
        down = new boolean[n];
        java.util.Arrays.fill(speed, speedBitsPerSecond);
    }

    @Override
    public boolean isUp(int port) {
        return !down[port];
    }

    @Override
    public long queuedBytes(int port) {
        return queued[port];
    }

    @Override
    public long transmittedBytes(int port) {
        return sent[port];
    }

    @Override
    public long speedBitsPerSecond(int port) {
        return speed[port];
    }

    @Override
    public int portCount() {
        return queued.length;
    }
}
