package io.distlock.zookeeper;

import java.nio.charset.StandardCharsets;
import org.jspecify.annotations.Nullable;

/**
 * What a queue node holds: whether its owner was granted the key, the lease in milliseconds, the owner token, when the
 * key was granted and the holder's instance name. A granted node's lease runs from its {@code mtime}, which the grant
 * and every extension set on the leader's clock; a queued node has no running lease, so nobody removes it for being old
 * while its owner waits. The grant is the node's first write, so until the first extension its {@code mtime} is also
 * when the key was granted; each extension writes that time down ({@code grantedAtMillis}, 0 before), so that it
 * survives the extension's new {@code mtime}. Data written before names were kept has neither: it reads with a holder
 * of null.
 *
 * @param grantedAtMillis the grant's {@code mtime}, on the leader's clock, or 0 where the node's own {@code mtime} is
 *     still the grant's or the key is not granted
 * @param holder the holder's instance name, or null for data written without one
 */
record LeaseData(
        boolean granted,
        long leaseMillis,
        String owner,
        long grantedAtMillis,
        @Nullable String holder) {

    private static final String FORMAT = "distlock1";

    static LeaseData queued(long leaseMillis, String owner, String holder) {
        return new LeaseData(false, leaseMillis, owner, 0, holder);
    }

    static LeaseData held(long leaseMillis, String owner, long grantedAtMillis, String holder) {
        return new LeaseData(true, leaseMillis, owner, grantedAtMillis, holder);
    }

    /**
     * Owner and holder come last, the holder after the owner, so that a reader of the format's first version, which
     * took everything after the lease for the owner, reads a node of this one as another owner's.
     */
    byte[] bytes() {
        String text = FORMAT + " " + (granted ? "held" : "queued") + " " + leaseMillis + " " + owner;
        if (holder != null) {
            text += " " + grantedAtMillis + " " + holder;
        }
        return text.getBytes(StandardCharsets.UTF_8);
    }

    /**
     * When the key was granted, for a granted node read with this {@code mtime}.
     *
     * @param mtime the node's {@code mtime} as read with this data
     */
    long grantedAt(long mtime) {
        return grantedAtMillis > 0 ? grantedAtMillis : mtime;
    }

    /** Reads a node's data; null for data this store did not write. */
    static @Nullable LeaseData parse(byte @Nullable [] data) {
        if (data == null) {
            return null;
        }
        String[] parts = new String(data, StandardCharsets.UTF_8).split(" ", 6);
        if ((parts.length != 4 && parts.length != 6) || !parts[0].equals(FORMAT)) {
            return null;
        }
        try {
            boolean granted = parts[1].equals("held");
            long lease = Long.parseLong(parts[2]);
            return parts.length == 4
                    ? new LeaseData(granted, lease, parts[3], 0, null)
                    : new LeaseData(granted, lease, parts[3], Long.parseLong(parts[4]), parts[5]);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
