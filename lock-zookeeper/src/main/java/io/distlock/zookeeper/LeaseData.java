package io.distlock.zookeeper;

import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * What a queue node holds: whether its owner was granted the key, the lease in milliseconds and the owner token. A
 * granted node's lease runs from its {@code mtime}, which the grant and every extension set on the leader's clock; a
 * queued node has no running lease, so nobody removes it for being old while its owner waits.
 */
record LeaseData(boolean granted, long leaseMillis, String owner) {

    private static final String FORMAT = "distlock1";

    static LeaseData queued(long leaseMillis, String owner) {
        return new LeaseData(false, leaseMillis, owner);
    }

    static LeaseData held(long leaseMillis, String owner) {
        return new LeaseData(true, leaseMillis, owner);
    }

    byte[] bytes() {
        return (FORMAT + " " + (granted ? "held" : "queued") + " " + leaseMillis + " " + owner)
                .getBytes(StandardCharsets.UTF_8);
    }

    /** Reads a node's data; null for data this store did not write. */
    static @Nullable LeaseData parse(byte @Nullable [] data) {
        if (data == null) {
            return null;
        }
        String[] parts = new String(data, StandardCharsets.UTF_8).split(" ", 4);
        if (parts.length != 4 || !parts[0].equals(FORMAT)) {
            return null;
        }
        try {
            return new LeaseData(parts[1].equals("held"), Long.parseLong(parts[2]), parts[3]);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
