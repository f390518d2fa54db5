package io.rocelab.perftest.report;

import io.rocelab.perftest.AtomicType;
import io.rocelab.perftest.ConnectionType;
import io.rocelab.perftest.TestType;
import io.rocelab.perftest.Verb;
import java.util.Objects;

/**
 * What the header block of a perftest run shows: the test, the device and the settings in force
 * after defaults and negotiation. A value object so that the header can be rendered (and tested)
 * without a NIC; the run fills it from the parsed options and the opened device.
 */
public final class TestInfo {
    /** What perftest prints for "PCIe relax order" when built without PCIe support; rocelab has no PCIe. */
    public static final String PCIE_UNSUPPORTED = "Unsupported";

    final Verb verb;
    final AtomicType atomicType;
    final TestType testType;
    final boolean bidirectional;
    final int postList;
    final int recvPostList;
    final boolean events;
    final int eventVector;
    final String deviceName;
    final boolean dualPort;
    final int numQps;
    final String transport;
    final ConnectionType connection;
    final boolean srq;
    final String pcieRelaxOrder;
    final boolean wrApi;
    /** Whether the QPs place data out of order (perftest's "Using Enhanced Reorder"; {@code --use_ooo}). */
    final boolean enhancedReorder;
    final boolean client;
    final int txDepth;
    final int rxDepth;
    final int cqModeration;
    final int mtuBytes;
    final String linkType;
    final int gidIndex;
    final int gidIndex2;
    final int maxInline;
    final int outstandingReads;
    final boolean rdmaCmQps;
    final boolean rdmaCmExchange;
    final int tos;

    private TestInfo(Builder b) {
        verb = Objects.requireNonNull(b.verb, "verb");
        testType = Objects.requireNonNull(b.testType, "testType");
        atomicType = verb == Verb.ATOMIC ? Objects.requireNonNull(b.atomicType, "atomicType") : b.atomicType;
        bidirectional = b.bidirectional;
        postList = b.postList;
        recvPostList = b.recvPostList;
        events = b.events;
        eventVector = b.eventVector;
        deviceName = Objects.requireNonNull(b.deviceName, "deviceName");
        dualPort = b.dualPort;
        numQps = b.numQps;
        transport = b.transport;
        connection = Objects.requireNonNull(b.connection, "connection");
        srq = b.srq;
        pcieRelaxOrder = b.pcieRelaxOrder;
        wrApi = b.wrApi;
        enhancedReorder = b.enhancedReorder;
        client = b.client;
        txDepth = b.txDepth;
        rxDepth = b.rxDepth;
        cqModeration = b.cqModeration;
        mtuBytes = b.mtuBytes;
        linkType = b.linkType;
        gidIndex = b.gidIndex;
        gidIndex2 = b.gidIndex2;
        maxInline = b.maxInline;
        outstandingReads = b.outstandingReads;
        rdmaCmQps = b.rdmaCmQps;
        rdmaCmExchange = b.rdmaCmExchange;
        tos = b.tos;
    }

    public static Builder builder() {
        return new Builder();
    }

    public Verb verb() {
        return verb;
    }

    public TestType testType() {
        return testType;
    }

    public boolean isClient() {
        return client;
    }

    public int gidIndex() {
        return gidIndex;
    }

    public ConnectionType connection() {
        return connection;
    }

    public boolean bidirectional() {
        return bidirectional;
    }

    /** Collects the header's values; the defaults are those of a plain RoCE run on rocelab. */
    public static final class Builder {
        private Verb verb;
        private AtomicType atomicType;
        private TestType testType;
        private boolean bidirectional;
        private int postList = 1;
        private int recvPostList = 1;
        private boolean events;
        private int eventVector;
        private String deviceName;
        private boolean dualPort;
        private int numQps = 1;
        private String transport = "IB";
        private ConnectionType connection = ConnectionType.RC;
        private boolean srq;
        private String pcieRelaxOrder = PCIE_UNSUPPORTED;
        private boolean wrApi = true;
        private boolean enhancedReorder;
        private boolean client;
        private int txDepth;
        private int rxDepth;
        private int cqModeration;
        private int mtuBytes = 1024;
        private String linkType = "Ethernet";
        private int gidIndex = -1;
        private int gidIndex2 = -1;
        private int maxInline;
        private int outstandingReads;
        private boolean rdmaCmQps;
        private boolean rdmaCmExchange;
        private int tos = -1;

        private Builder() {
        }

        public Builder verb(Verb v) {
            verb = v;
            return this;
        }

        /** Printed in the title of atomic tests. */
        public Builder atomicType(AtomicType t) {
            atomicType = t;
            return this;
        }

        public Builder testType(TestType t) {
            testType = t;
            return this;
        }

        public Builder bidirectional(boolean b) {
            bidirectional = b;
            return this;
        }

        public Builder postList(int n) {
            postList = n;
            return this;
        }

        public Builder recvPostList(int n) {
            recvPostList = n;
            return this;
        }

        /** {@code -e}: the header names the completion vector used for events. */
        public Builder events(boolean e, int vector) {
            events = e;
            eventVector = vector;
            return this;
        }

        public Builder deviceName(String name) {
            deviceName = name;
            return this;
        }

        public Builder dualPort(boolean b) {
            dualPort = b;
            return this;
        }

        public Builder numQps(int n) {
            numQps = n;
            return this;
        }

        /** The device's transport: "IB" for InfiniBand and RoCE devices, "IW" for iWARP. */
        public Builder transport(String t) {
            transport = t;
            return this;
        }

        public Builder connection(ConnectionType c) {
            connection = c;
            return this;
        }

        public Builder srq(boolean b) {
            srq = b;
            return this;
        }

        /** "ON", "OFF" or {@link #PCIE_UNSUPPORTED}. */
        public Builder pcieRelaxOrder(String s) {
            pcieRelaxOrder = s;
            return this;
        }

        /** Whether the QPs place data out of order ({@code --use_ooo}): the header says "Using Enhanced Reorder". */
        public Builder enhancedReorder(boolean b) {
            enhancedReorder = b;
            return this;
        }

        /** Whether work requests are posted with the {@code ibv_wr_*} API (off with {@code --use_old_post_send}). */
        public Builder wrApi(boolean b) {
            wrApi = b;
            return this;
        }

        /** The client (and either side of a bidirectional run) shows its TX depth. */
        public Builder client(boolean b) {
            client = b;
            return this;
        }

        public Builder txDepth(int n) {
            txDepth = n;
            return this;
        }

        /** Shown by the receiving side of send tests. */
        public Builder rxDepth(int n) {
            rxDepth = n;
            return this;
        }

        /** Shown by bandwidth tests. */
        public Builder cqModeration(int n) {
            cqModeration = n;
            return this;
        }

        public Builder mtuBytes(int n) {
            mtuBytes = n;
            return this;
        }

        /** "Ethernet" for RoCE, "IB" for InfiniBand. */
        public Builder linkType(String s) {
            linkType = s;
            return this;
        }

        /** The GID index in use, or -1 when none (InfiniBand without {@code -x}): then no line. */
        public Builder gidIndex(int n) {
            gidIndex = n;
            return this;
        }

        /** With {@code -O}: the GID index of port 2's QPs (perftest's {@code gid_index2}), or -1: then no line. */
        public Builder gidIndex2(int n) {
            gidIndex2 = n;
            return this;
        }

        /** Shown by send and write tests. */
        public Builder maxInline(int n) {
            maxInline = n;
            return this;
        }

        /** Shown by read and atomic tests instead of the inline size. */
        public Builder outstandingReads(int n) {
            outstandingReads = n;
            return this;
        }

        /** {@code -R}: the QPs are connected by rdma_cm. */
        public Builder rdmaCmQps(boolean b) {
            rdmaCmQps = b;
            return this;
        }

        /** Keys are exchanged over rdma_cm rather than TCP (true with {@code -R}). */
        public Builder rdmaCmExchange(boolean b) {
            rdmaCmExchange = b;
            return this;
        }

        /** {@code -T}: the type of service of rdma_cm QPs, or -1 when not set. */
        public Builder tos(int t) {
            tos = t;
            return this;
        }

        public TestInfo build() {
            return new TestInfo(this);
        }
    }
}
